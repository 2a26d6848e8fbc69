/**
 * Servers from an MCP registry (the setting `mcpRegistryUrl`): found by words, shown for
 * review (publisher, package, command line, the values it needs), and added switched off
 * the same way as a server typed in (`mcp.add`): switching it on asks before it runs.
 */
import { configFor, viewOf } from '../../../core/mcp-registry/install-plan'
import { McpRegistryClient } from '../../../core/mcp-registry/registry-client'
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'
import { serverEditHandlers } from './server-edits'

type RegistryRoutes = 'mcp.registrySearch' | 'mcp.registryServer' | 'mcp.registryInstall'

export function registryHandlers(c: HandlerContext): Pick<Handlers, RegistryRoutes> {
  const client = (): McpRegistryClient =>
    new McpRegistryClient(c.app.settings.get().mcpRegistryUrl, fetch)
  const configured = (name: string): boolean => name in c.app.settings.get().mcpServers
  const add = serverEditHandlers(c)['mcp.add']
  return {
    'mcp.registrySearch': async ({ query }) => await client().search(query),
    'mcp.registryServer': async ({ name, version }) => {
      const registry = client()
      const answer = await registry.server(name, version)
      return { registry: c.app.settings.get().mcpRegistryUrl, server: viewOf(answer, configured) }
    },
    'mcp.registryInstall': async ({ registryName, version, option, name, values }) => {
      const answer = await client().server(registryName, version)
      return await add({ name, config: configFor(answer.server, option, values) })
    },
  }
}
