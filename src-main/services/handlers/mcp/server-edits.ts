/**
 * Adding, changing and removing the settings' MCP servers. A change is saved, then applied:
 * only the servers it touches restart. A server added from the window starts disabled, and
 * a command runs only once the user allowed its command line (`command-consent.ts`).
 */
import type { McpServerInfo } from '../../../../src-preload/contract/dto'
import type { McpServerConfig } from '../../../core/mcp-ports'
import { ExpectedError } from '../../../core/errors'
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'
import { allowCommand } from './command-consent'

type EditRoutes = 'mcp.add' | 'mcp.update' | 'mcp.remove'

type StoredServers = Record<string, Record<string, unknown>>

export function serverEditHandlers(c: HandlerContext): Pick<Handlers, EditRoutes> {
  const stored = (): StoredServers => c.app.settings.get().mcpServers
  const editable = (): void => {
    if (c.mcpOverride) {
      throw new ExpectedError(
        'conflict',
        'The MCP servers of this run come from --mcp-config; change that file instead.',
      )
    }
  }
  /** Saves the settings' servers and applies them: only the servers that changed restart. */
  const save = async (change: (all: StoredServers) => void): Promise<McpServerInfo[]> => {
    await c.app.settings.update((s) => {
      const next = { ...s.mcpServers }
      change(next)
      // a configured OAuth client's secret is kept with the API keys, not in the settings
      for (const [n, entry] of Object.entries(next)) next[n] = c.mcpLogins.keepClientSecret(entry)
      s.mcpServers = next
    })
    c.tools.manager.apply(c.mcpConfigs.fromSettings(stored(), () => {}))
    return c.tools.servers()
  }
  // a configuration that is not valid is bad_request (McpConfigError), naming the field
  const toConfig = (name: string, raw: unknown): McpServerConfig => c.mcpConfigs.parse(name, raw)
  const put = (name: string, entry: McpServerConfig) => (all: StoredServers) =>
    void (all[name] = entry as unknown as Record<string, unknown>)

  return {
    // A server added from the UI (typed or pasted JSON) starts disabled: the user sees its
    // exact command, arguments and environment variable names, then enables it.
    'mcp.add': async ({ name, config }) => {
      editable()
      if (name in stored())
        throw new ExpectedError('conflict', `An MCP server named "${name}" exists already.`)
      return { servers: await save(put(name, toConfig(name, { ...config, disabled: true }))) }
    },
    'mcp.update': async (input) => {
      const { name, config, enabled, trustAnnotations, allowViews, confirmedFingerprint } = input
      editable()
      const current = stored()[name]
      if (!current) throw new ExpectedError('not_found', `There is no MCP server named "${name}".`)
      const next: Record<string, unknown> = { ...(config ?? current) }
      // a changed command is not run until it is enabled again (after review)
      if (config) next['disabled'] = true
      if (enabled !== undefined) {
        if (enabled) delete next['disabled']
        else next['disabled'] = true
      }
      if (trustAnnotations !== undefined) next['trustAnnotations'] = trustAnnotations
      if (allowViews !== undefined) next['allowViews'] = allowViews
      const entry = toConfig(name, next)
      await allowCommand(c, name, current, entry, confirmedFingerprint)
      // the user may have taken a while: what was confirmed must still be what is stored
      if (JSON.stringify(stored()[name]) !== JSON.stringify(current))
        throw new ExpectedError('conflict', `"${name}" was changed meanwhile: review it again.`)
      return { servers: await save(put(name, entry)) }
    },
    'mcp.remove': async ({ name }) => {
      editable()
      if (!(name in stored()))
        throw new ExpectedError('not_found', `There is no MCP server named "${name}".`)
      const removed = stored()[name]
      const list = await save((all) => delete all[name])
      c.mcpLogins.forgetUnusedLogin(removed, stored())
      // an installed extension goes with its server: its unpacked folder and its secrets
      const folder = removed?.['extension']
      if (typeof folder === 'string') await c.mcpExtensions.remove(folder)
      c.app.secrets.setMcpValues(name, null)
      return { servers: list }
    },
  }
}
