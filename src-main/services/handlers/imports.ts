/** Importing chats from export files in the window: pick (desktop), start, cancel, list. */
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

type ImportRoutes = 'imports.pick' | 'imports.start' | 'imports.cancel' | 'imports.list'

export function importHandlers(c: HandlerContext): Pick<Handlers, ImportRoutes> {
  return {
    'imports.pick': async () => {
      if (!c.dialogs?.pickFiles)
        throw new ExpectedError(
          'unavailable',
          'The system’s file dialog is the desktop app’s: here the page uploads the file.',
        )
      const [file] = await c.dialogs.pickFiles({ title: 'Import chats' })
      return { file: file ? await c.imports.offer(file) : null }
    },
    'imports.start': async ({ fileId }) => c.imports.start(fileId),
    'imports.cancel': async ({ importId }) => ({ cancelled: c.imports.cancel(importId) }),
    'imports.list': async () => ({ imports: c.imports.list() }),
  }
}
