/**
 * The routes of the MCP servers' resources and prompts (the composer's `@` and
 * `/server:prompt`). A server that cannot read or give one answers `unavailable` with its
 * reason (the ExpectedError of `ResourcesAndPrompts`).
 */
import type { McpResourcesAndPrompts } from '../../../core/mcp-ports'
import type { Handlers } from '../../../ipc/router'
import type { HandlerContext } from '../handler-context'

type ResourcesAndPromptsRoutes =
  'mcp.resources' | 'mcp.readResource' | 'mcp.prompts' | 'mcp.getPrompt'

export function resourcesAndPromptsHandlers(
  c: HandlerContext,
): Pick<Handlers, ResourcesAndPromptsRoutes> {
  const offered = (): McpResourcesAndPrompts => c.tools.resourcesAndPrompts
  return {
    'mcp.resources': () => offered().resources(),
    'mcp.readResource': async (input) => ({ parts: await offered().read(input) }),
    'mcp.prompts': () => offered().prompts(),
    'mcp.getPrompt': async (input) => ({
      messages: await offered().prompt(input.server, input.name, input.arguments ?? {}),
    }),
  }
}
