/** `messages.pin`: keep a message in context (never summarized or left out of a request). */
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'
import { existingSession, sessionChanged } from './session-lookup'

export function messageHandlers(c: HandlerContext): Pick<Handlers, 'messages.pin'> {
  return {
    'messages.pin': async ({ sessionId, messageId, pinned }) => {
      existingSession(c, sessionId)
      const message = c.app.store.setMessagePinned(sessionId, messageId, pinned)
      if (!message)
        throw new ExpectedError('not_found', 'There is no such message to keep in context.')
      sessionChanged(c, sessionId)
      return message
    },
  }
}
