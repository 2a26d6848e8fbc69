/** Reading sessions: the list, one session's open branch a page at a time, search, export. */
import type { Handlers } from '../../../ipc/router'
import { fileSlug } from '../../host/file-slug'
import { attachmentsFolder, exportWithFiles } from '../../sessions/export-files'
import type { HandlerContext } from '../handler-context'
import { existingSession } from '../session-lookup'

type ReadingRoutes = 'sessions.list' | 'sessions.get' | 'sessions.search' | 'sessions.export'

/**
 * Matches in snippets are wrapped in these control characters (STX … ETX), which text
 * hardly ever holds, so the window can tell them from brackets in the text itself.
 */
const SNIPPET_MARKERS: [string, string] = ['\u0002', '\u0003']

export function sessionReadingHandlers(c: HandlerContext): Pick<Handlers, ReadingRoutes> {
  const store = c.app.store
  return {
    'sessions.list': async ({ limit, offset, includeArchived }) =>
      store.listSessions({
        limit: limit ?? 50,
        ...(offset ? { offset } : {}),
        ...(includeArchived ? { includeArchived } : {}),
      }),
    'sessions.get': async ({ id, beforeSeq, limit }) => {
      const session = existingSession(c, id)
      const page = store.getBranchPage(id, {
        limit: limit ?? 200,
        ...(beforeSeq ? { beforeSeq } : {}),
      })
      return { session, ...page }
    },
    'sessions.search': async ({ query, order, limit, offset }) => ({
      hits: store.search(query, {
        order: order ?? 'ranked',
        limit: limit ?? 20,
        markers: SNIPPET_MARKERS,
        ...(offset ? { offset } : {}),
      }),
    }),
    'sessions.export': async ({ id, format }) => {
      const session = existingSession(c, id)
      const filename = `${fileSlug(session.title, 'conversation')}.${format}`
      // Markdown links its files in a folder beside it, which the save writes too
      const folder = format === 'md' ? attachmentsFolder(filename) : undefined
      const exported = await exportWithFiles(c.app, id, format, folder)
      return {
        filename,
        mimeType: format === 'md' ? 'text/markdown' : 'application/json',
        content: exported.content,
        files: exported.files.map((f) => ({
          path: f.path,
          data: Buffer.from(f.data).toString('base64'),
        })),
      }
    },
  }
}
