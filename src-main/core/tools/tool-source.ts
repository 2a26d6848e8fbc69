/**
 * A source of tools: one MCP server, or Cairn's built-in set. The composite host turns
 * the tools of all sources into the names the model sees and routes calls back.
 */
import type { ToolAnnotations } from '../../../src-preload/contract/events'
import type { ToolCallScope, ToolOutcome } from '../ports'

/** `needs-login`: a remote server that wants the user to log in (OAuth) before it is used */
export type SourceStatus = 'starting' | 'ready' | 'error' | 'stopped' | 'needs-login'

export interface SourceTool {
  /** the server's own name for the tool */
  name: string
  description: string
  inputSchema: Record<string, unknown>
  outputSchema?: Record<string, unknown>
  annotations: ToolAnnotations
  /** the server's own `_meta` of the tool (an MCP Apps view's `ui` address), passed on as is */
  meta?: Record<string, unknown>
}

export interface ToolSource {
  /** the server's name (`cairn` for built-in tools) */
  readonly name: string
  /** whether this source's annotations (read-only hints) can be believed */
  readonly trusted: boolean
  /** a hash of the source's configuration (command, args, env, url): rules are bound to it */
  readonly configFingerprint: string
  status(): SourceStatus
  /** the tools it offers now (none unless ready) */
  tools(): SourceTool[]
  call(tool: string, args: Record<string, unknown>, ctx: ToolCallScope): Promise<ToolOutcome>
  /** resolves true once ready, false on error or when the signal aborts */
  whenReady(signal: AbortSignal): Promise<boolean>
}
