/** `logs.turns`: a session's logged LLM calls, a page at a time (the turn inspector). */
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'
import { existingSession } from './session-lookup'

export function logHandlers(c: HandlerContext): Pick<Handlers, 'logs.turns'> {
  return {
    'logs.turns': async ({ sessionId, offset, limit }) => {
      existingSession(c, sessionId)
      return c.app.turnLogs.list(sessionId, { offset: offset ?? 0, limit: limit ?? 20 })
    },
  }
}
