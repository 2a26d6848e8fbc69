/** Files attached to a message in the window: read, stored, previewed, read back. */
import type { AttachmentPart } from '../../../src-preload/contract/dto'
import type { AttachmentTaken } from '../../../src-preload/contract/routes'
import { MB } from '../../core/attachments/limits'
import { ExpectedError } from '../../core/errors'
import type { AttachedFile } from '../../core/service-ports'
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

type AttachmentRoutes =
  | 'attachments.add'
  | 'attachments.pick'
  | 'attachments.addPicked'
  | 'attachments.get'
  | 'attachments.thumbnail'
  | 'attachments.text'
  | 'attachments.pdfPages'

export function attachmentHandlers(c: HandlerContext): Pick<Handlers, AttachmentRoutes> {
  const taken = async (part: AttachmentPart): Promise<AttachmentTaken> => {
    const thumbnail = part.kind === 'image' ? await c.app.attachments.thumbnail(part.id) : null
    return { token: c.attachmentInbox.put(part), part, thumbnail }
  }
  const take = async (file: AttachedFile): Promise<AttachmentTaken> =>
    taken(await c.app.attachments.take(file, { pending: true }))
  return {
    'attachments.add': async ({ name, data }) => take({ name, bytes: data }),
    'attachments.pick': async () => {
      if (!c.dialogs?.pickFiles)
        throw new ExpectedError(
          'unavailable',
          'The system’s file dialog is the desktop app’s: here the page chooses the files.',
        )
      return { files: c.pickedFiles.add(await c.dialogs.pickFiles({ title: 'Attach files' })) }
    },
    'attachments.addPicked': async ({ pickId }) => {
      const s = c.app.settings.get().attachments
      return take(await c.pickedFiles.read(pickId, Math.max(s.maxImageMB, s.maxDocumentMB) * MB))
    },
    'attachments.get': async ({ id }) => {
      const file = await c.app.attachments.read(id)
      if (!file) throw new ExpectedError('not_found', 'This attachment is no longer stored.')
      return { mediaType: file.mediaType, data: Buffer.from(file.data).toString('base64') }
    },
    'attachments.thumbnail': async ({ id }) => ({ url: await c.app.attachments.thumbnail(id) }),
    'attachments.text': async ({ id }) => ({ text: c.app.attachments.text(id) }),
    'attachments.pdfPages': async (input) => {
      const parts = await c.app.attachments.pdfPages(input)
      return { pages: await Promise.all(parts.map(taken)) }
    },
  }
}
