import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import { fileSlug } from '../host/file-slug'
import type { HandlerContext } from './handler-context'

type SessionRoutes =
  | 'sessions.list'
  | 'sessions.get'
  | 'sessions.search'
  | 'sessions.rename'
  | 'sessions.pin'
  | 'sessions.setModel'
  | 'sessions.delete'
  | 'sessions.export'
  | 'logs.turns'

/**
 * Matches in snippets are wrapped in these control characters (STX … ETX), which text
 * hardly ever holds, so the window can tell them from brackets in the text itself.
 */
const SNIPPET_MARKERS: [string, string] = ['\u0002', '\u0003']

export function sessionHandlers(c: HandlerContext): Pick<Handlers, SessionRoutes> {
  const store = c.app.store
  const existing = (id: string) => {
    const session = store.getSession(id)
    if (!session) throw new ExpectedError('not_found', `There is no session "${id}".`)
    return session
  }
  const changed = (sessionId: string, deleted = false): void =>
    c.hub.publish({
      event: 'sessions.changed',
      payload: { sessionId, ...(deleted ? { deleted } : {}) },
    })
  return {
    'sessions.list': async ({ limit, offset, includeArchived }) =>
      store.listSessions({
        limit: limit ?? 50,
        ...(offset ? { offset } : {}),
        ...(includeArchived ? { includeArchived } : {}),
      }),
    'sessions.get': async ({ id, beforeSeq, limit }) => {
      const session = existing(id)
      const messages = store.getMessages(id, {
        limit: limit ?? 200,
        ...(beforeSeq ? { beforeSeq } : {}),
      })
      return { session, messages, hasMore: (messages[0]?.seq ?? 1) > 1 }
    },
    'sessions.search': async ({ query, order, limit, offset }) => ({
      hits: store.search(query, {
        order: order ?? 'ranked',
        limit: limit ?? 20,
        markers: SNIPPET_MARKERS,
        ...(offset ? { offset } : {}),
      }),
    }),
    'sessions.rename': async ({ id, title }) => {
      existing(id)
      const s = store.renameSession(id, title.trim())
      changed(id)
      return s
    },
    'sessions.pin': async ({ id, pinned }) => {
      existing(id)
      const s = store.setPinned(id, pinned)
      changed(id)
      return s
    },
    // a running turn keeps its model; the session's next turn uses this one
    'sessions.setModel': async ({ id, model }) => {
      existing(id)
      const name = model.trim()
      if (name === '') throw new ExpectedError('bad_request', 'The model name is empty.')
      const s = store.updateSession(id, { model: name })
      changed(id)
      return s
    },
    'sessions.delete': async ({ id }) => {
      if (c.turns.isRunning(id))
        throw new ExpectedError('conflict', 'A turn is running in this session: stop it first.')
      const deleted = store.deleteSession(id)
      if (deleted) {
        await c.app.turnLogs.deleteSession(id)
        changed(id, true)
      }
      return { deleted }
    },
    'sessions.export': async ({ id, format }) => {
      const session = existing(id)
      return {
        filename: `${fileSlug(session.title, 'conversation')}.${format}`,
        mimeType: format === 'md' ? 'text/markdown' : 'application/json',
        content: store.exportSession(id, format),
      }
    },
    'logs.turns': async ({ sessionId, offset, limit }) => {
      existing(sessionId)
      return c.app.turnLogs.list(sessionId, { offset: offset ?? 0, limit: limit ?? 20 })
    },
  }
}
