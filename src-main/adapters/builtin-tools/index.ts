/**
 * Cairn's built-in tools, served in-process as the tool source `cairn`: file tools
 * confined to the session's workspace, search, a shell command runner, a URL fetcher and
 * the todo list. The model sees them under their plain names (`read_file`, …).
 */
import type { TodoItem } from '../../../src-preload/contract/dto'
import type { SessionStore, ToolCallScope, ToolOutcome } from '../../core/ports'
import type { SourceStatus, SourceTool, ToolSource } from '../../core/tools/tool-source'
import { fetch as undiciFetch } from 'undici'
import type { ProcessRegistry } from '../mcp/process-registry'
import type { Containment } from './containment'
import { fetchUrlTool } from './fetch-url'
import { systemResolver } from './net-guard'
import { listDirectoryTool, readFileTool } from './read-tools'
import { runCommandTool } from './run-command'
import { searchFilesTool } from './search'
import { searchKnowledgeTool } from './search-knowledge'
import { todoWriteTool } from './todo'
import {
  DEFAULT_LIMITS,
  text,
  ToolError,
  type BuiltinLimits,
  type BuiltinTool,
  type KnowledgeScope,
  type Resolver,
  type ToolEnv,
} from './tool-def'
import { editFileTool, writeFileTool } from './write-tools'
import { useSkillTool } from './use-skill'
import type { SkillLibrary } from '../../core/skills/skills'

export { defaultWorkspace } from './workspace'
export type { KnowledgeScope } from './tool-def'

export interface BuiltinToolsOptions {
  /** the session's workspace folder (created on first use if missing) */
  workspace: () => string
  /** tool names switched off in settings */
  disabled?: readonly string[]
  /** for todo_write (without one, the list is kept in memory only) */
  store?: Pick<SessionStore, 'setTodos'>
  limits?: Partial<BuiltinLimits>
  /** injectable for tests (default: undici's fetch, which honours the pinned address) */
  fetch?: typeof fetch
  /** hosts fetch_url may reach although local or private: `host`, `host:port` or `*` */
  fetchAllowedHosts?: readonly string[]
  /** host name resolution for fetch_url's checks (injectable for tests) */
  resolve?: Resolver
  /** for run_command (default: $SHELL or /bin/sh on POSIX, %ComSpec% or cmd.exe on Windows) */
  shell?: string
  /** the environment run_command picks its allowed variables from (default: process.env) */
  env?: NodeJS.ProcessEnv
  /** variable names run_command passes on besides PATH, HOME, … (settings: toolAccess.commandEnv) */
  commandEnv?: readonly string[]
  /** where run_command records its process groups, for the cleanup after a crash */
  processRegistry?: ProcessRegistry
  /** forces run_command's containment (tests; default: the best this system allows) */
  containment?: Containment
  /** hears, after each command, which containment it ran under (and why) */
  onContainment?: (c: Pick<Containment, 'kind' | 'description'>) => void
  /** the chat's project's knowledge sources: search_knowledge is offered only with them */
  knowledge?: KnowledgeScope
  /** the skills the turn may read with use_skill (offered only when there is one) */
  skills?: SkillLibrary
}

export const BUILTIN_SERVER_NAME = 'cairn'
export const BUILTIN_CONFIG_FINGERPRINT = 'cairn-builtin-v1'

const ALL_TOOLS: readonly BuiltinTool[] = [
  readFileTool,
  listDirectoryTool,
  searchFilesTool,
  writeFileTool,
  editFileTool,
  runCommandTool,
  fetchUrlTool,
  todoWriteTool,
  searchKnowledgeTool,
]
const BY_NAME = new Map(ALL_TOOLS.map((t) => [t.name, t]))

export const BUILTIN_TOOL_NAMES: readonly string[] = ALL_TOOLS.map((t) => t.name)

export class BuiltinTools implements ToolSource {
  readonly name = BUILTIN_SERVER_NAME
  readonly trusted = true
  readonly configFingerprint = BUILTIN_CONFIG_FINGERPRINT
  private readonly disabled: ReadonlySet<string>
  private readonly limits: BuiltinLimits
  private readonly store: Pick<SessionStore, 'setTodos'>

  constructor(private readonly opts: BuiltinToolsOptions) {
    this.disabled = new Set(opts.disabled ?? [])
    this.limits = { ...DEFAULT_LIMITS, ...definedOnly(opts.limits ?? {}) }
    this.store = opts.store ?? memoryTodos()
  }

  status(): SourceStatus {
    return 'ready'
  }

  /** the tools of this turn: the fixed set, and use_skill when there are skills */
  private all(): readonly BuiltinTool[] {
    const skills = this.opts.skills
    return skills && skills.list().length > 0 ? [...ALL_TOOLS, useSkillTool(skills)] : ALL_TOOLS
  }

  tools(): SourceTool[] {
    return this.all()
      .filter((t) => this.offered(t.name))
      .map((t) => ({
        name: t.name,
        description: t.description,
        inputSchema: t.inputSchema,
        annotations: { ...t.annotations },
      }))
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    ctx: ToolCallScope,
  ): Promise<ToolOutcome> {
    const def = BY_NAME.get(tool) ?? this.all().find((t) => t.name === tool)
    if (!def) {
      throw new Error(
        `Cairn has no built-in tool named "${tool}" (it has: ${BUILTIN_TOOL_NAMES.join(', ')}).`,
      )
    }
    if (this.disabled.has(tool)) {
      throw new Error(
        `The built-in tool ${tool} is switched off in the settings; the call was not made.`,
      )
    }
    if (!this.offered(tool))
      return text(
        `${tool} is not available in this chat: its project has no knowledge sources.`,
        true,
      )
    if (typeof args !== 'object' || args === null || Array.isArray(args)) {
      return text(`The arguments of ${tool} must be a JSON object.`, true)
    }
    const env: ToolEnv = {
      workspace: this.opts.workspace(),
      limits: this.limits,
      ctx,
      store: this.store,
      fetch: this.opts.fetch ?? (undiciFetch as unknown as typeof fetch),
      fetchAllowedHosts: this.opts.fetchAllowedHosts ?? [],
      resolve: this.opts.resolve ?? systemResolver,
      shell: this.opts.shell,
      env: this.opts.env ?? process.env,
      commandEnvNames: this.opts.commandEnv ?? [],
      processRegistry: this.opts.processRegistry,
      containment: this.opts.containment,
      onContainment: this.opts.onContainment,
      knowledge: this.opts.knowledge,
    }
    try {
      return await def.run(args, env)
    } catch (e) {
      if (ctx.signal.aborted) throw e
      if (e instanceof ToolError) return text(e.message, true)
      return text(`${tool} failed: ${e instanceof Error ? e.message : String(e)}`, true)
    }
  }

  /** switched on, and (search_knowledge) with sources to search */
  private offered(name: string): boolean {
    if (this.disabled.has(name)) return false
    return name !== searchKnowledgeTool.name || this.opts.knowledge !== undefined
  }

  whenReady(_signal: AbortSignal): Promise<boolean> {
    return Promise.resolve(true)
  }
}

function definedOnly(limits: Partial<BuiltinLimits>): Partial<BuiltinLimits> {
  return Object.fromEntries(
    Object.entries(limits).filter(([, v]) => typeof v === 'number' && Number.isFinite(v) && v > 0),
  ) as Partial<BuiltinLimits>
}

function memoryTodos(): Pick<SessionStore, 'setTodos'> {
  const lists = new Map<string, TodoItem[]>()
  return { setTodos: (sessionId, todos) => void lists.set(sessionId, todos) }
}
