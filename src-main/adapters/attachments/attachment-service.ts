/** The services' `AttachmentService` on the files, the store's rows and the intake. */
import type { AttachmentSettings } from '../../../src-preload/contract/settings-schema'
import type { AttachmentService } from '../../core/service-ports'
import type { AttachmentRecord } from '../sqlite/attachment-rows'
import type { AttachmentFiles } from './attachment-files'
import { thumbnail } from './image'
import { takeFile } from './intake'
import { takePdfPages } from './pdf-page-intake'
import { StoredAttachments } from './stored-attachments'

/** how long a file attached in the window but not sent is kept */
export const PENDING_MS = 24 * 60 * 60_000

export function attachmentService(
  files: AttachmentFiles,
  store: {
    recordAttachment(record: AttachmentRecord, pendingMs: number): void
    attachment(id: string): AttachmentRecord | null
  },
  settings: () => AttachmentSettings,
): AttachmentService {
  return {
    take: (file, { pending }) =>
      takeFile(file, { files, store, settings: settings(), pendingMs: pending ? PENDING_MS : 0 }),
    reader: new StoredAttachments(files, store),
    read: async (id) => {
      const data = await files.read(id)
      const row = store.attachment(id)
      return data && row ? { mediaType: row.mediaType, data } : null
    },
    text: (id) => store.attachment(id)?.text ?? null,
    thumbnail: async (id) => {
      const data = await files.read(id)
      return data ? thumbnail(data) : null
    },
    pdfPages: (input) =>
      takePdfPages(input, {
        files,
        store,
        settings: settings(),
        pendingMs: PENDING_MS,
        mediaTypeOf: (id) => store.attachment(id)?.mediaType ?? null,
      }),
  }
}
