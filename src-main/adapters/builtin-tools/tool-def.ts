/**
 * What every built-in tool is made of: its definition for the model (name, description,
 * schema, annotations) and a run function. Plus the small helpers the tools share for
 * reading arguments defensively and for building outcomes.
 */
import type { ToolAnnotations } from '../../../src-preload/contract/events'
import type { SessionStore, ToolCallScope, ToolOutcome } from '../../core/ports'
import type { ProcessRegistry } from '../mcp/process-registry'
import type { Containment } from './containment'
import type { KnowledgeSearchResult } from '../../../src-preload/contract/knowledge'
import type { ErrorCode } from '../../../src-preload/contract/errors'
import { ExpectedError } from '../../core/errors'

export interface BuiltinLimits {
  maxFileBytes: number
  commandTimeoutMs: number
  commandOutputChars: number
  fetchMaxBytes: number
  fetchTimeoutMs: number
}

export const DEFAULT_LIMITS: BuiltinLimits = {
  maxFileBytes: 2 * 1024 * 1024,
  commandTimeoutMs: 120_000,
  commandOutputChars: 30_000,
  fetchMaxBytes: 2 * 1024 * 1024,
  fetchTimeoutMs: 30_000,
}

export interface ResolvedAddress {
  address: string
  family: 4 | 6
}

/** Resolves a host name to all of its addresses (net-guard.ts; injectable for tests). */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>

/** What search_knowledge searches: one project's sources (the services scope it). */
export interface KnowledgeScope {
  search(query: string, limit: number): Promise<KnowledgeSearchResult>
}

/** What a tool gets besides its arguments. */
export interface ToolEnv {
  /** the session's workspace folder as configured (not yet created or resolved) */
  workspace: string
  limits: BuiltinLimits
  ctx: ToolCallScope
  store: Pick<SessionStore, 'setTodos'>
  fetch: typeof fetch
  /** hosts fetch_url may reach although they are local or private (see net-guard.ts) */
  fetchAllowedHosts: readonly string[]
  resolve: Resolver
  shell: string | undefined
  env: NodeJS.ProcessEnv
  /** environment variable names run_command passes on besides its own list */
  commandEnvNames: readonly string[]
  /** where run_command records its process groups (see process-registry.ts) */
  processRegistry: ProcessRegistry | undefined
  /** run_command's containment when forced (default: the best this system allows) */
  containment: Containment | undefined
  /** hears which containment a command ran under */
  onContainment: ((c: Pick<Containment, 'kind' | 'description'>) => void) | undefined
  /** search_knowledge's sources: the chat's project's (none: the tool is not offered) */
  knowledge: KnowledgeScope | undefined
}

export interface BuiltinTool {
  name: string
  description: string
  inputSchema: Record<string, unknown>
  annotations: ToolAnnotations
  run(args: Record<string, unknown>, env: ToolEnv): Promise<ToolOutcome>
}

/** An error whose message is written for the model: what went wrong and what to do. */
export class ToolError extends ExpectedError {
  override readonly name = 'ToolError'
  /** `code`: how the call failed, when a caller needs more than the words (default `bad_request`) */
  constructor(message: string, code: ErrorCode = 'bad_request', options?: { cause?: unknown }) {
    super(code, message, options)
  }
}

export function text(t: string, isError = false): ToolOutcome {
  return isError
    ? { content: [{ type: 'text', text: t }], isError: true }
    : { content: [{ type: 'text', text: t }] }
}

export function stringArg(args: Record<string, unknown>, key: string): string {
  const v = args[key]
  if (typeof v !== 'string') throw new ToolError(`The argument "${key}" must be a string.`)
  return v
}

export function optionalString(args: Record<string, unknown>, key: string): string | undefined {
  const v = args[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw new ToolError(`The argument "${key}" must be a string.`)
  return v
}

export function optionalInt(
  args: Record<string, unknown>,
  key: string,
  min: number,
  max: number,
): number | undefined {
  const v = args[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isFinite(v) || !Number.isInteger(v)) {
    throw new ToolError(`The argument "${key}" must be a whole number.`)
  }
  if (v < min || v > max) {
    throw new ToolError(`The argument "${key}" must be between ${min} and ${max}; got ${v}.`)
  }
  return v
}

export function optionalBool(args: Record<string, unknown>, key: string): boolean | undefined {
  const v = args[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'boolean') throw new ToolError(`The argument "${key}" must be true or false.`)
  return v
}

/** `1234567` → `1.2 MB`, for messages. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} bytes`
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(1)} KB`
  return `${(n / (1024 * 1024)).toFixed(1)} MB`
}

/** Whether a buffer looks binary: it has a NUL byte in its first 8 KB. */
export function looksBinary(buf: Uint8Array): boolean {
  const end = Math.min(buf.length, 8192)
  for (let i = 0; i < end; i++) if (buf[i] === 0) return true
  return false
}
