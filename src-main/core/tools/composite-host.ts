import type { ToolCallScope, ToolDescriptor, ToolHost, ToolOutcome } from '../ports'
import { toolFingerprint } from './fingerprint'
import { waitAllReady } from './ready-wait'
import { modelToolName, uniqueName } from './tool-names'
import type { ToolSource } from './tool-source'
import { ExpectedError } from '../errors'

/**
 * The server name of the built-in tools. It is reserved: the MCP configuration refuses a
 * server of this name (see `adapters/mcp/config.ts`), and a source is built-in only when it
 * is the very object handed to the host as `builtin`, never because of its name.
 */
export const BUILTIN_SERVER = 'cairn'

/** The tool changed (description, schema or server configuration) since the model saw it. */
export class ToolChangedError extends ExpectedError<'conflict'> {
  constructor(name: string) {
    super('conflict', `the tool ${name} changed after the model asked for it`)
    this.name = 'ToolChangedError'
  }
}

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
    private readonly opts: { readyTimeoutMs?: number; builtin?: ToolSource } = {},
  ) {}

  private get readyTimeoutMs(): number {
    return this.opts.readyTimeoutMs ?? 10_000
  }

  listTools(): ToolDescriptor[] {
    const taken = new Set<string>()
    const routes = new Map<string, Route>()
    const out: ToolDescriptor[] = []
    // built-in tools first: their plain names win any collision
    const builtinSource = this.opts.builtin
    const others = this.sources().filter((s) => s !== builtinSource)
    const ordered = builtinSource ? [builtinSource, ...others] : others
    for (const source of ordered) {
      if (source.status() !== 'ready') continue
      const builtin = source === builtinSource
      for (const tool of source.tools()) {
        const name = uniqueName(modelToolName(source.name, tool.name, builtin), taken)
        taken.add(name)
        routes.set(name, { source, tool: tool.name })
        out.push({
          name,
          server: builtin ? BUILTIN_SERVER : source.name,
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
    ctx: ToolCallScope,
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
    if (ctx.fingerprint !== undefined) {
      // what was approved is what runs: a tool that changed since the request is not called
      const now = route.source.tools().find((t) => t.name === route.tool)
      if (!now || toolFingerprint(route.source.configFingerprint, now) !== ctx.fingerprint)
        throw new ToolChangedError(name)
    }
    return route.source.call(route.tool, args, ctx)
  }

  async waitUntilReady(signal: AbortSignal): Promise<string[]> {
    const starting = this.sources().filter((s) => s.status() === 'starting')
    if (starting.length === 0) return []
    // a timer we hold, not AbortSignal.timeout: inside AbortSignal.any that one can be
    // collected before it fires, and the wait would never end
    const bounded = new AbortController()
    const timer = setTimeout(() => bounded.abort(), this.readyTimeoutMs)
    const onAbort = (): void => bounded.abort()
    signal.addEventListener('abort', onAbort, { once: true })
    if (signal.aborted) bounded.abort()
    try {
      await waitAllReady(starting, bounded.signal)
    } finally {
      clearTimeout(timer)
      signal.removeEventListener('abort', onAbort)
    }
    const notReady = this.sources().filter(
      (s) => s.status() === 'starting' || s.status() === 'error',
    )
    const stillStarting = notReady.filter((s) => s.status() === 'starting').map((s) => s.name)
    const failed = notReady.filter((s) => s.status() === 'error').map((s) => s.name)
    const notices: string[] = []
    if (stillStarting.length > 0) {
      notices.push(
        `Still starting after ${seconds(this.readyTimeoutMs)}, so their tools are not available yet: ${stillStarting.join(', ')}.`,
      )
    }
    if (failed.length > 0)
      notices.push(`Failed to start, so their tools are not available: ${failed.join(', ')}.`)
    const login = this.sources()
      .filter((s) => s.status() === 'needs-login')
      .map((s) => s.name)
    if (login.length > 0)
      notices.push(
        `Waiting for you to log in, so their tools are not available: ${login.join(', ')} (Log in in Settings › MCP servers, or \`cairn mcp login <name>\`).`,
      )
    return notices
  }
}

function seconds(ms: number): string {
  return `${ms < 10_000 ? (ms / 1000).toFixed(1).replace(/\.0$/, '') : Math.round(ms / 1000)} s`
}
