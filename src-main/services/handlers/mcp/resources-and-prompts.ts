/** The routes of the MCP servers' resources and prompts (the composer's `@` and `/server:prompt`). */
import { ResourcesAndPromptsError } from '../../../adapters/mcp/resources-and-prompts'
import { ExpectedError } from '../../../core/errors'
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
    'mcp.readResource': async (input) => ({ parts: await explained(offered().read(input)) }),
    'mcp.prompts': () => offered().prompts(),
    'mcp.getPrompt': async (input) => ({
      messages: await explained(offered().prompt(input.server, input.name, input.arguments ?? {})),
    }),
  }
}

/** a server's refusal is an expected failure the window shows, not an internal error */
export async function explained<T>(p: Promise<T>): Promise<T> {
  try {
    return await p
  } catch (e) {
    if (e instanceof ResourcesAndPromptsError) throw new ExpectedError('unavailable', e.message)
    throw e
  }
}
