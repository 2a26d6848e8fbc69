/**
 * A server's tool list, read page by page within Cairn's limits (pages read, tools kept)
 * and turned into the tools the model is offered. The definitions as the server sent them
 * are kept too: a call hands its tool's definition to the SDK, which mirrors the arguments
 * a tool designates into `Mcp-Param-*` headers and checks structured output against it.
 */
import type { Client, Tool } from '@modelcontextprotocol/client'
import type { SourceTool } from '../../core/tools/tool-source'
import { invalidHeaderDeclaration } from './x-mcp-header'

/** pages of `tools/list` read at most: a server that pages forever stops here */
export const MAX_TOOL_PAGES = 50
/** tools of one server given to the model unless the settings say otherwise */
export const DEFAULT_MAX_TOOLS_PER_SERVER = 100

export interface ToolList {
  tools: SourceTool[]
  /** the definitions as the server sent them, by name */
  definitions: Map<string, Tool>
  /** what was left out, said once to the user (null when nothing was) */
  notice: string | null
  /** tools left out because they cannot be called as the spec requires, with why */
  refused: { name: string; why: string }[]
}

function sourceTool(t: Tool): SourceTool {
  const a = t.annotations
  return {
    name: t.name,
    description: t.description ?? a?.title ?? '',
    inputSchema: t.inputSchema as Record<string, unknown>,
    ...(t.outputSchema ? { outputSchema: t.outputSchema as Record<string, unknown> } : {}),
    annotations: {
      ...(a?.title !== undefined ? { title: a.title } : {}),
      ...(a?.readOnlyHint !== undefined ? { readOnlyHint: a.readOnlyHint } : {}),
      ...(a?.destructiveHint !== undefined ? { destructiveHint: a.destructiveHint } : {}),
      ...(a?.idempotentHint !== undefined ? { idempotentHint: a.idempotentHint } : {}),
      ...(a?.openWorldHint !== undefined ? { openWorldHint: a.openWorldHint } : {}),
    },
    // what a tool carries beyond the spec's fields (an MCP Apps view's `ui` address) stays
    ...(t._meta ? { meta: t._meta as Record<string, unknown> } : {}),
  }
}

/**
 * Reads the tool list of `client`'s server. `checkHeaders`: a 2026-07-28 session over HTTP,
 * where a tool whose `x-mcp-header` declarations are invalid is left out.
 */
export async function readToolList(
  client: Client,
  server: string,
  o: { max: number; checkHeaders: boolean; signal?: AbortSignal },
): Promise<ToolList> {
  const tools: SourceTool[] = []
  const definitions = new Map<string, Tool>()
  const refused: ToolList['refused'] = []
  let offered = 0
  let pages = 0
  let cursor: string | undefined
  if (client.getServerCapabilities()?.tools === undefined)
    return { tools, definitions, notice: null, refused }
  do {
    if (pages++ >= MAX_TOOL_PAGES) break
    const page = await client.request(
      { method: 'tools/list', params: cursor ? { cursor } : {} },
      o.signal ? { signal: o.signal } : {},
    )
    for (const t of page.tools) {
      const why = o.checkHeaders ? invalidHeaderDeclaration(t.inputSchema) : null
      if (why) {
        refused.push({ name: t.name, why })
        continue
      }
      if (++offered > o.max) continue
      tools.push(sourceTool(t))
      definitions.set(t.name, t)
    }
    cursor = page.nextCursor
  } while (cursor && offered <= o.max)
  const more = cursor ? ' or more' : ''
  const notice =
    offered > o.max
      ? `The server "${server}" offers ${offered}${more} tools; only the first ${o.max} are given to the model (the limit of tools per server is in the settings).`
      : cursor
        ? `The server "${server}" listed its tools over more than ${MAX_TOOL_PAGES} pages; only those pages are used.`
        : null
  return { tools, definitions, notice, refused }
}

/** What the user is told about tools left out for their header declarations. */
export function refusedNotice(server: string, refused: ToolList['refused']): string | null {
  if (refused.length === 0) return null
  const first = refused[0]!
  const others = refused.length > 1 ? ` (and ${refused.length - 1} more)` : ''
  return `The server "${server}" offers the tool ${first.name}${others} with header declarations Cairn cannot send (${first.why}); it is left out.`
}
