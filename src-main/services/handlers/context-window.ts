import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import { compactSession, sessionContext } from '../turns/compact-service'
import type { HandlerContext } from './handler-context'

type ContextRoutes =
  'sessions.compact' | 'sessions.undoCompaction' | 'sessions.context' | 'messages.pin'

/** What the model is given of a session: compaction, its undo, pins, and the size of it. */
export function contextHandlers(c: HandlerContext): Pick<Handlers, ContextRoutes> {
  const store = c.app.store
  const existing = (id: string): void => {
    if (!store.getSession(id)) throw new ExpectedError('not_found', `There is no session "${id}".`)
  }
  const changed = (sessionId: string): void =>
    c.hub.publish({ event: 'sessions.changed', payload: { sessionId } })
  return {
    'sessions.compact': async ({ id }) => {
      existing(id)
      const result = await compactSession(c.app, id, c.env)
      if (result.compacted) changed(id)
      return result
    },
    'sessions.undoCompaction': async ({ id, summaryId }) => {
      existing(id)
      const removed = store.removeSummary(id, summaryId)
      if (removed) changed(id)
      return { removed }
    },
    'sessions.context': async ({ id }) => {
      existing(id)
      return sessionContext(c.app, id)
    },
    'messages.pin': async ({ sessionId, messageId, pinned }) => {
      existing(sessionId)
      const message = store.setMessagePinned(sessionId, messageId, pinned)
      if (!message)
        throw new ExpectedError('not_found', 'There is no such message to keep in context.')
      changed(sessionId)
      return message
    },
  }
}
