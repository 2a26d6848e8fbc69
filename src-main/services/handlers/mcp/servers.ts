/** The configured MCP servers as the window lists them, a restart, a server's last stderr lines. */
import type { McpServerInfo } from '../../../../src-preload/contract/dto'
import { ExpectedError } from '../../../core/errors'
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'

type ServerRoutes = 'mcp.list' | 'mcp.restart' | 'mcp.logs'

/** the server of that name, as listed; `not_found` when there is none */
export function findServer(c: HandlerContext, name: string): McpServerInfo {
  const s = c.tools.servers().find((x) => x.name === name)
  if (!s) throw new ExpectedError('not_found', `There is no MCP server named "${name}".`)
  return s
}

export function serverHandlers(c: HandlerContext): Pick<Handlers, ServerRoutes> {
  return {
    'mcp.list': async () => ({ servers: c.tools.servers(), fromFile: c.mcpOverride }),
    'mcp.restart': async ({ name }) => {
      findServer(c, name)
      if (!(await c.tools.manager.restart(name)))
        throw new ExpectedError('conflict', `The MCP server "${name}" is disabled.`)
      return { server: findServer(c, name) }
    },
    'mcp.logs': async ({ name }) => ({ name, stderrTail: findServer(c, name).stderrTail }),
  }
}
