import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './context'

type ChatRoutes = 'chat.send' | 'chat.stop' | 'chat.attach' | 'approvals.respond'

export function chatHandlers(c: HandlerContext): Pick<Handlers, ChatRoutes> {
  return {
    'chat.send': async (input) =>
      c.turns.send({
        text: input.text,
        ...(input.sessionId ? { sessionId: input.sessionId } : {}),
        ...(input.model ? { model: input.model } : {}),
        ...(input.workspace ? { workspace: input.workspace } : {}),
      }),
    'chat.stop': async ({ turnId }) => ({ stopped: c.turns.stop(turnId) }),
    'chat.attach': async ({ sessionId }) => c.turns.attach(sessionId),
    'approvals.respond': async ({ requestId, decision, reason }) => ({
      accepted: c.approvals.respond(requestId, decision, reason),
    }),
  }
}
