/**
 * `cairn assistants create|edit` options into an assistant draft: what is given replaces,
 * `--unset <field>` goes back to the settings' value, the rest stays. The draft is then
 * checked with the contract's schema; each mistake is a usage error that names the option.
 */
import {
  assistantDraftSchema,
  type AssistantDraft,
  type AssistantTools,
  type ToolSelection,
} from '../../src-preload/contract/assistants'
import { PERMISSION_POLICIES } from '../../src-preload/contract/settings-schema'
import { UsageError, type CliOptions } from './args'

/** every tool: the built-in ones and every server's (servers added later too) */
export const ALL_TOOLS: AssistantTools = {
  builtin: { mode: 'all', names: [] },
  mcp: { servers: {}, others: 'all' },
}

const UNSETTABLE = {
  description: 'description',
  prompt: 'systemPrompt',
  provider: 'providerId',
  model: 'model',
  'utility-model': 'utilityModel',
  temperature: 'temperature',
  policy: 'permissionPolicy',
  workspace: 'workspace',
} as const satisfies Record<string, keyof AssistantDraft>

/**
 * `--tools`: comma-separated entries. `all` and `none`; a built-in tool by its name;
 * `builtin:*` every built-in tool; `<server>:<tool>` one tool of an MCP server;
 * `<server>:*` all of a server's tools; `mcp:*` every server's tools.
 */
export function parseToolsSpec(spec: string): AssistantTools {
  const entries = spec
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean)
  if (entries.length === 0)
    throw new UsageError('--tools needs a list (all, none, or tools separated by commas)')
  if (entries.length === 1 && entries[0] === 'all') return structuredClone(ALL_TOOLS)
  const builtin: ToolSelection = { mode: 'none', names: [] }
  const servers: Record<string, ToolSelection> = {}
  let others: 'all' | 'none' = 'none'
  for (const entry of entries) {
    if (entry === 'none') continue
    if (entry === 'all')
      throw new UsageError('--tools all means every tool; it cannot be combined with others')
    const colon = entry.indexOf(':')
    if (colon < 0) {
      builtin.mode = builtin.mode === 'all' ? 'all' : 'some'
      if (!builtin.names.includes(entry)) builtin.names.push(entry)
      continue
    }
    const server = entry.slice(0, colon).trim()
    const tool = entry.slice(colon + 1).trim()
    if (!server || !tool)
      throw new UsageError(`--tools: "${entry}" is not <server>:<tool> or <server>:*`)
    if (server === 'builtin' && tool === '*') builtin.mode = 'all'
    else if (server === 'builtin') {
      builtin.mode = builtin.mode === 'all' ? 'all' : 'some'
      if (!builtin.names.includes(tool)) builtin.names.push(tool)
    } else if (server === 'mcp' && tool === '*') others = 'all'
    else {
      const s = (servers[server] ??= { mode: 'some', names: [] })
      if (tool === '*') s.mode = 'all'
      else if (!s.names.includes(tool)) s.names.push(tool)
    }
  }
  return { builtin, mcp: { servers, others } }
}

/** `--tools` written back: the same syntax, for `cairn assistants show` */
export function toolsSpec(tools: AssistantTools): string {
  if (
    tools.builtin.mode === 'all' &&
    tools.mcp.others === 'all' &&
    Object.values(tools.mcp.servers).every((s) => s.mode === 'all')
  )
    return 'all'
  const out: string[] = []
  if (tools.builtin.mode === 'all') out.push('builtin:*')
  else if (tools.builtin.mode === 'some') out.push(...tools.builtin.names)
  for (const [server, s] of Object.entries(tools.mcp.servers)) {
    if (s.mode === 'all') out.push(`${server}:*`)
    else if (s.mode === 'some') out.push(...s.names.map((n) => `${server}:${n}`))
  }
  if (tools.mcp.others === 'all') out.push('mcp:*')
  return out.length > 0 ? out.join(',') : 'none'
}

function number(option: string, value: string): number {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n))
    throw new UsageError(`${option} must be a number, not "${value}"`)
  return n
}

/**
 * The draft `base` with the command line's assistant options applied: `--name` (or the
 * name given to create), the fields, `--tools`, the limits, then `--unset`.
 */
export function draftFromOptions(base: AssistantDraft, options: CliOptions): AssistantDraft {
  const f = options.assistantFields
  const draft: AssistantDraft = structuredClone(base)
  if (f.name !== undefined) draft.name = f.name
  if (f.description !== undefined) draft.description = f.description
  if (f.prompt !== undefined) draft.systemPrompt = f.prompt
  if (f.provider !== undefined) draft.providerId = f.provider
  if (options.model !== undefined) draft.model = options.model
  if (f.utilityModel !== undefined) draft.utilityModel = f.utilityModel
  if (f.temperature !== undefined) draft.temperature = number('--temperature', f.temperature)
  if (f.tools !== undefined) draft.tools = parseToolsSpec(f.tools)
  if (f.policy !== undefined) {
    const policy = PERMISSION_POLICIES.find((p) => p === f.policy)
    if (!policy)
      throw new UsageError(`--policy must be ${PERMISSION_POLICIES.join(', ')}, not "${f.policy}"`)
    draft.permissionPolicy = policy
  }
  if (options.maxIterations !== undefined) draft.limits.maxIterations = options.maxIterations
  if (options.deadlineMs !== undefined) draft.limits.deadlineMs = options.deadlineMs
  if (options.workspace !== undefined) draft.workspace = options.workspace
  for (const field of f.unset) {
    if (field === 'max-iterations') delete draft.limits.maxIterations
    else if (field === 'deadline-ms') delete draft.limits.deadlineMs
    else if (Object.hasOwn(UNSETTABLE, field))
      delete draft[UNSETTABLE[field as keyof typeof UNSETTABLE]]
    else
      throw new UsageError(
        `--unset takes ${[...Object.keys(UNSETTABLE), 'max-iterations', 'deadline-ms'].join(', ')}, not "${field}"`,
      )
  }
  const checked = assistantDraftSchema.safeParse(draft)
  if (!checked.success) {
    const problems = checked.error.issues
      .slice(0, 3)
      .map((i) => `${i.path.join('.') || 'assistant'}: ${i.message}`)
      .join('; ')
    throw new UsageError(`the assistant is not valid: ${problems}`)
  }
  return checked.data
}
