/** `approvals.respond`: the user's answer to a tool call waiting for approval. */
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

export function approvalHandlers(c: HandlerContext): Pick<Handlers, 'approvals.respond'> {
  return {
    'approvals.respond': async ({ requestId, decision, reason }) => ({
      accepted: c.approvals.respond(requestId, decision, reason),
    }),
  }
}
