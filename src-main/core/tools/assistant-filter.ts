/**
 * The tools an assistant allows. A tool it does not allow is not offered to the model at all
 * (nor found by `find_tools`, which searches what this host lists), and a call to one is
 * answered like a call to any name that does not exist (`unknown_tool`).
 */
import type { AssistantTools, ToolSelection } from '../../../src-preload/contract/assistants'
import type { ToolCallScope, ToolDescriptor, ToolHost, ToolOutcome } from '../ports'
import { BUILTIN_SERVER } from './composite-host'

const NONE: ToolSelection = { mode: 'none', names: [] }
const ALL: ToolSelection = { mode: 'all', names: [] }

/** what an MCP server offers under these rules (servers not listed follow `others`) */
function serverSelection(tools: AssistantTools, server: string): ToolSelection {
  const listed = Object.hasOwn(tools.mcp.servers, server) ? tools.mcp.servers[server] : undefined
  return listed ?? (tools.mcp.others === 'all' ? ALL : NONE)
}

function selects(selection: ToolSelection, tool: string): boolean {
  return selection.mode === 'all' || (selection.mode === 'some' && selection.names.includes(tool))
}

/** whether the tool `tool` of `server` (null: a built-in tool) may be offered */
export function allowsTool(tools: AssistantTools, server: string | null, tool: string): boolean {
  return selects(server === null ? tools.builtin : serverSelection(tools, server), tool)
}

/** whether any MCP server's tool may be offered (else no server needs to be waited for) */
export function allowsAnyServerTool(tools: AssistantTools): boolean {
  if (tools.mcp.others === 'all') return true
  return Object.values(tools.mcp.servers).some(
    (s) => s.mode === 'all' || (s.mode === 'some' && s.names.length > 0),
  )
}

/** whether a listed tool (as a `CompositeToolHost` describes it) may be offered */
export function allowsDescriptor(tools: AssistantTools, d: ToolDescriptor): boolean {
  return allowsTool(tools, d.server === BUILTIN_SERVER ? null : d.server, d.tool)
}

/** The tools of `inner` that an assistant allows; the others do not exist for the model. */
export class AssistantToolHost implements ToolHost {
  private allowed = new Set<string>()
  readonly waitUntilReady?: (signal: AbortSignal) => Promise<string[]>

  constructor(
    private readonly inner: ToolHost,
    private readonly tools: AssistantTools,
  ) {
    // servers whose tools are not offered at all are not waited for
    if (inner.waitUntilReady && allowsAnyServerTool(tools))
      this.waitUntilReady = (signal) => inner.waitUntilReady!(signal)
  }

  async listTools(): Promise<ToolDescriptor[]> {
    const listed = (await this.inner.listTools()).filter((d) => allowsDescriptor(this.tools, d))
    this.allowed = new Set(listed.map((d) => d.name))
    return listed
  }

  callTool(name: string, args: Record<string, unknown>, ctx: ToolCallScope): Promise<ToolOutcome> {
    if (!this.allowed.has(name)) return Promise.reject(new Error(`no tool named ${name}`))
    return this.inner.callTool(name, args, ctx)
  }
}
