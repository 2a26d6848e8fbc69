import type { ToolCallContext, ToolDescriptor, ToolHost, ToolOutcome } from '../ports'
import { toolFingerprint } from './fingerprint'
import { modelToolName, uniqueName } from './tool-names'
import type { ToolSource } from './tool-source'

export const BUILTIN_SERVER = 'cairn'

interface Route {
  source: ToolSource
  tool: string
}

/**
 * The ToolHost the agent loop sees: the tools of every ready source under the names the
 * model sees, and calls routed back to their source. The first LLM call of a turn waits
 * (bounded) for sources that are still starting.
 */
export class CompositeToolHost implements ToolHost {
  private routes = new Map<string, Route>()

  constructor(
    private readonly sources: () => readonly ToolSource[],
    private readonly opts: { readyTimeoutMs: number } = { readyTimeoutMs: 10_000 },
  ) {}

  listTools(): ToolDescriptor[] {
    const taken = new Set<string>()
    const routes = new Map<string, Route>()
    const out: ToolDescriptor[] = []
    // built-in tools first: their plain names win any collision
    const ordered = [...this.sources()].sort(
      (a, b) => Number(b.name === BUILTIN_SERVER) - Number(a.name === BUILTIN_SERVER),
    )
    for (const source of ordered) {
      if (source.status() !== 'ready') continue
      const builtin = source.name === BUILTIN_SERVER
      for (const tool of source.tools()) {
        const name = uniqueName(modelToolName(source.name, tool.name, builtin), taken)
        taken.add(name)
        routes.set(name, { source, tool: tool.name })
        out.push({
          name,
          server: source.name,
          tool: tool.name,
          description: tool.description,
          inputSchema: tool.inputSchema,
          annotations: tool.annotations,
          trusted: builtin || source.trusted,
          fingerprint: toolFingerprint(source.configFingerprint, tool),
        })
      }
    }
    this.routes = routes
    return out
  }

  async callTool(
    name: string,
    args: Record<string, unknown>,
    ctx: ToolCallContext,
  ): Promise<ToolOutcome> {
    const route = this.routes.get(name)
    if (!route) throw new Error(`no tool named ${name}`)
    if (route.source.status() !== 'ready') {
      return {
        content: [
          {
            type: 'text',
            text: `The server "${route.source.name}" is not running (${route.source.status()}); the call was not made.`,
          },
        ],
        isError: true,
      }
    }
    return route.source.call(route.tool, args, ctx)
  }

  async waitUntilReady(signal: AbortSignal): Promise<string[]> {
    const starting = this.sources().filter((s) => s.status() === 'starting')
    if (starting.length === 0) return []
    const bound = AbortSignal.any([signal, AbortSignal.timeout(this.opts.readyTimeoutMs)])
    await Promise.all(starting.map((s) => s.whenReady(bound)))
    const notReady = this.sources().filter(
      (s) => s.status() === 'starting' || s.status() === 'error',
    )
    const stillStarting = notReady.filter((s) => s.status() === 'starting').map((s) => s.name)
    const failed = notReady.filter((s) => s.status() === 'error').map((s) => s.name)
    const notices: string[] = []
    if (stillStarting.length > 0) {
      notices.push(
        `Still starting after ${seconds(this.opts.readyTimeoutMs)}, so their tools are not available yet: ${stillStarting.join(', ')}.`,
      )
    }
    if (failed.length > 0)
      notices.push(`Failed to start, so their tools are not available: ${failed.join(', ')}.`)
    return notices
  }
}

function seconds(ms: number): string {
  return `${ms < 10_000 ? (ms / 1000).toFixed(1).replace(/\.0$/, '') : Math.round(ms / 1000)} s`
}
