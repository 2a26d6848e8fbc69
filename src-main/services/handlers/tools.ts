/** `tools.builtins`: Cairn's own tools, for the settings' list (each can be switched off). */
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

export function toolHandlers(c: HandlerContext): Pick<Handlers, 'tools.builtins'> {
  return {
    'tools.builtins': async () => ({
      tools: c.tools.builtins(),
      defaultWorkspace: c.app.defaultWorkspace(),
    }),
  }
}
