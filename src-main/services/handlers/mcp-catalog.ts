/** The routes of the MCP servers' resources and prompts (the composer's `@` and `/server:prompt`). */
import { CatalogError } from '../../adapters/mcp/catalog'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import type { HandlerContext } from './handler-context'

type CatalogRoutes = 'mcp.resources' | 'mcp.readResource' | 'mcp.prompts' | 'mcp.getPrompt'

export function mcpCatalogHandlers(c: HandlerContext): Pick<Handlers, CatalogRoutes> {
  const catalog = () => c.tools.catalog
  return {
    'mcp.resources': () => catalog().resources(),
    'mcp.readResource': async (input) => ({ parts: await explained(catalog().read(input)) }),
    'mcp.prompts': () => catalog().prompts(),
    'mcp.getPrompt': async (input) => ({
      messages: await explained(catalog().prompt(input.server, input.name, input.arguments ?? {})),
    }),
  }
}

/** a server's refusal is an expected failure the window shows, not an internal error */
export async function explained<T>(p: Promise<T>): Promise<T> {
  try {
    return await p
  } catch (e) {
    if (e instanceof CatalogError) throw new ExpectedError('unavailable', e.message)
    throw e
  }
}
