/**
 * A session's context window: compaction on request, its undo, and the measure of what the
 * next request would send against the window.
 */
import type { Handlers } from '../../../ipc/router'
import { compactSession, sessionContext } from '../../turns/compact-service'
import type { HandlerContext } from '../handler-context'
import { existingSession, sessionChanged } from '../session-lookup'

type ContextWindowRoutes = 'sessions.compact' | 'sessions.undoCompaction' | 'sessions.context'

export function contextWindowHandlers(c: HandlerContext): Pick<Handlers, ContextWindowRoutes> {
  return {
    'sessions.compact': async ({ id }) => {
      existingSession(c, id)
      const result = await compactSession(c.app, id, c.env)
      if (result.compacted) sessionChanged(c, id)
      return result
    },
    'sessions.undoCompaction': async ({ id, summaryId }) => {
      existingSession(c, id)
      const removed = c.app.store.removeSummary(id, summaryId)
      if (removed) sessionChanged(c, id)
      return { removed }
    },
    'sessions.context': async ({ id }) => {
      existingSession(c, id)
      return sessionContext(c.app, id)
    },
  }
}
