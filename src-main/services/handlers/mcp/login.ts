/**
 * `mcp.login` and `mcp.logout` for remote servers that use OAuth. A login answers as soon
 * as the browser has been sent to the authorization address; it goes on in the background
 * (the code comes back to a loopback address) and the server restarts once it has its
 * token, which the window hears as a status change. A login that fails or times out leaves
 * the server at "needs login" with the reason.
 */
import type { McpServerInfo } from '../../../../src-preload/contract/dto'
import { isStdio, type HttpServerConfig } from '../../../core/mcp-ports'
import { ExpectedError, messageOf } from '../../../core/errors'
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'

export function loginHandlers(c: HandlerContext): Pick<Handlers, 'mcp.login' | 'mcp.logout'> {
  const inFlight = new Map<string, Promise<string | null>>()
  const remote = (name: string): HttpServerConfig => {
    const conn = c.tools.manager.get(name)
    if (!conn) {
      const known = c.tools.servers().some((s) => s.name === name)
      throw new ExpectedError(
        known ? 'conflict' : 'not_found',
        known
          ? `"${name}" is disabled: enable it first.`
          : `There is no MCP server named "${name}".`,
      )
    }
    if (isStdio(conn.config))
      throw new ExpectedError(
        'bad_request',
        `"${name}" runs a command; only a server with a URL has a login.`,
      )
    return conn.config
  }
  const info = (name: string): McpServerInfo =>
    c.tools.servers().find((s) => s.name === name) ?? c.tools.manager.get(name)!.info()
  const open = async (name: string, url: string): Promise<void> => {
    if (!(await c.openAuthorization(name, url)))
      throw new ExpectedError('aborted', 'the login was cancelled before the browser opened')
  }

  const start = (name: string, config: HttpServerConfig): Promise<string | null> =>
    new Promise((resolve, reject) => {
      let opened = false
      c.mcpLogins
        .login(name, config, async (u) => {
          // opened (or refused, which fails the login) before the route answers with it
          await open(name, u.href)
          opened = true
          resolve(u.href)
        })
        .then(async () => {
          if (!opened) resolve(null)
          await c.tools.manager.restart(name)
        })
        .catch((e: unknown) => {
          const message = `The login failed: ${messageOf(e)}`
          // a refused address stays forbidden, a cancel aborted; the server's failure unavailable
          const code = e instanceof ExpectedError ? e.code : 'unavailable'
          if (!opened) reject(new ExpectedError(code, message, { cause: e }))
          c.tools.manager.get(name)?.noteLoginFailure(message)
        })
        .finally(() => inFlight.delete(name))
    })

  return {
    'mcp.login': async ({ name }) => {
      const config = remote(name)
      let pending = inFlight.get(name)
      if (!pending) {
        pending = start(name, config)
        inFlight.set(name, pending)
      }
      const authorizationUrl = await pending
      return { server: info(name), authorizationUrl }
    },
    'mcp.logout': async ({ name }) => {
      const config = remote(name)
      c.mcpLogins.logout(config.url)
      await c.tools.manager.restart(name)
      return { server: info(name) }
    },
  }
}
