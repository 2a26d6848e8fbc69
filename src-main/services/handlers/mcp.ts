import type { McpServerInfo } from '../../../src-preload/contract/dto'
import { parseServerConfig } from '../../adapters/mcp/config'
import { RouteError, type Handlers } from '../../ipc/router'
import { configuredServers } from '../tool-runtime'
import type { HandlerContext } from './context'

type McpRoutes =
  'mcp.list' | 'mcp.add' | 'mcp.update' | 'mcp.remove' | 'mcp.restart' | 'mcp.logs' | 'app.info'

export function mcpHandlers(c: HandlerContext): Pick<Handlers, McpRoutes> {
  const servers = (): McpServerInfo[] => c.tools.servers()
  const find = (name: string): McpServerInfo => {
    const s = servers().find((x) => x.name === name)
    if (!s) throw new RouteError('not_found', `There is no MCP server named "${name}".`)
    return s
  }
  const editable = (): void => {
    if (c.mcpOverride) {
      throw new RouteError(
        'conflict',
        'The MCP servers of this run come from --mcp-config; change that file instead.',
      )
    }
  }
  /** Saves the settings' servers and applies them: only the servers that changed restart. */
  const save = (
    change: (all: Record<string, Record<string, unknown>>) => void,
  ): McpServerInfo[] => {
    c.app.settings.update((s) => {
      const next = { ...s.mcpServers }
      change(next)
      s.mcpServers = next
    })
    c.tools.manager.apply(configuredServers(c.app.settings.get().mcpServers, () => {}))
    return servers()
  }
  const toRecord = (name: string, raw: unknown): Record<string, unknown> => {
    try {
      return parseServerConfig(name, raw) as unknown as Record<string, unknown>
    } catch (e) {
      throw new RouteError('bad_request', (e as Error).message)
    }
  }
  return {
    'mcp.list': async () => ({ servers: servers() }),
    // A server added from the UI (typed or pasted JSON) starts disabled: the user sees its
    // exact command, arguments and environment variable names, then enables it.
    'mcp.add': async ({ name, config }) => {
      editable()
      if (name in c.app.settings.get().mcpServers)
        throw new RouteError('conflict', `An MCP server named "${name}" exists already.`)
      const entry = toRecord(name, { ...config, disabled: true })
      return { servers: save((all) => (all[name] = entry)) }
    },
    'mcp.update': async ({ name, config, enabled, trustAnnotations }) => {
      editable()
      const current = c.app.settings.get().mcpServers[name]
      if (!current) throw new RouteError('not_found', `There is no MCP server named "${name}".`)
      const next: Record<string, unknown> = { ...(config ?? current) }
      // a changed command is not run until it is enabled again (after review)
      if (config) next['disabled'] = true
      if (enabled !== undefined) {
        if (enabled) delete next['disabled']
        else next['disabled'] = true
      }
      if (trustAnnotations !== undefined) next['trustAnnotations'] = trustAnnotations
      const entry = toRecord(name, next)
      return { servers: save((all) => (all[name] = entry)) }
    },
    'mcp.remove': async ({ name }) => {
      editable()
      if (!(name in c.app.settings.get().mcpServers))
        throw new RouteError('not_found', `There is no MCP server named "${name}".`)
      return { servers: save((all) => delete all[name]) }
    },
    'mcp.restart': async ({ name }) => {
      find(name)
      if (!(await c.tools.manager.restart(name)))
        throw new RouteError('conflict', `The MCP server "${name}" is disabled.`)
      return { server: find(name) }
    },
    'mcp.logs': async ({ name }) => ({ name, stderrTail: find(name).stderrTail }),
    'app.info': async () => ({
      name: 'Cairn',
      version: c.version,
      dataDir: c.app.dataDir,
      host: c.hostKind,
      platform: process.platform,
    }),
  }
}
