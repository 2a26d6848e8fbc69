/** `elicitations.respond`: the user's answer to what a server asked during a tool call. */
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

export function elicitationHandlers(c: HandlerContext): Pick<Handlers, 'elicitations.respond'> {
  return {
    'elicitations.respond': async ({ requestId, action, content }) =>
      c.elicitations.respond(requestId, { action, ...(content ? { content } : {}) }),
  }
}
