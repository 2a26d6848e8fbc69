/**
 * `cairn mcp login <name>`: opens the browser (`BROWSER` when set, else the system's) at
 * the server's authorization address and waits for the code on a loopback address;
 * `cairn mcp logout <name>` forgets the server's tokens.
 */
import { AddressRefused, openInBrowser } from '../adapters/mcp/browser-opener'
import { loginToServer } from '../adapters/mcp/oauth-login'
import { McpAuthStore } from '../adapters/mcp/oauth-store'
import { isStdio, type McpServersConfig } from '../core/mcp-ports'
import type { AppServices } from '../services/host/app-services'
import { UsageError } from './args'
import type { Streams } from './output'

declare const __CAIRN_VERSION__: string | undefined

export async function mcpLogin(
  app: AppServices,
  servers: McpServersConfig,
  name: string,
  logout: boolean,
  streams: Streams,
): Promise<number> {
  const config = servers[name]
  if (!config)
    throw new UsageError(`there is no MCP server named "${name}"; \`cairn mcp list\` shows them`)
  if (isStdio(config))
    throw new UsageError(`"${name}" runs a command; only a server with a URL has a login`)
  const store = new McpAuthStore(app.secrets)
  if (logout) {
    const had = store.logout(config.url)
    streams.stdout.write(
      had ? `Logged out of "${name}": its tokens are forgotten.\n` : `"${name}" had no login.\n`,
    )
    return 0
  }
  const timeout = Number(process.env['CAIRN_LOGIN_TIMEOUT_MS'])
  try {
    await loginToServer(name, config, {
      store,
      clientVersion: typeof __CAIRN_VERSION__ === 'string' ? __CAIRN_VERSION__ : 'dev',
      clientMetadataUrl: app.settings.get().mcp.clientMetadataUrl,
      ...(timeout > 0 ? { timeoutMs: timeout } : {}),
      open: async (url) => {
        try {
          await openInBrowser(url.href, { purpose: 'login' })
          streams.stderr.write(`Opening your browser to log in to "${name}":\n  ${url.href}\n`)
        } catch (e) {
          // a refused address fails the login; no browser found leaves the address to open
          if (e instanceof AddressRefused) throw e
          streams.stderr.write(`${(e as Error).message}\n  ${url.href}\n`)
        }
      },
    })
  } catch (e) {
    streams.stderr.write(`The login to "${name}" failed: ${(e as Error).message}\n`)
    return 1
  }
  streams.stdout.write(`Logged in to "${name}".\n`)
  return 0
}
