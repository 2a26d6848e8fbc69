/**
 * The assistant form's state (what is typed, as text) and its one way to a draft: checked
 * field by field with the contract's bounds, so a save is sent whole or not at all and each
 * problem is said beside its field. Also where a host's refusal points in the form.
 */
import type { AssistantDraft, AssistantTools } from '../../../../src-preload/contract/assistants'
import type { PermissionPolicy } from '../../../../src-preload/contract/dto'
import type { ErrorInfo } from '../../../../src-preload/contract/errors'
import { absolutePathProblem } from '../../ui/forms/absolute-path'

export interface AssistantFormState {
  name: string
  description: string
  /** false: the settings' system prompt */
  ownPrompt: boolean
  systemPrompt: string
  /** '' : the default provider */
  providerId: string
  model: string
  utilityModel: string
  temperature: string
  tools: AssistantTools
  /** '' : the settings' policy */
  permissionPolicy: PermissionPolicy | ''
  maxIterations: string
  deadlineSeconds: string
  workspace: string
}

/** The form's fields, in order: the first field with a problem takes the focus. */
export const FIELD_ORDER = [
  'name',
  'description',
  'systemPrompt',
  'providerId',
  'model',
  'utilityModel',
  'temperature',
  'tools',
  'permissionPolicy',
  'maxIterations',
  'deadlineSeconds',
  'workspace',
] as const

export type FormField = (typeof FIELD_ORDER)[number]

export type FormErrors = Partial<Record<FormField, string>>

/** the id of a field's control (`assistant-<field>`) */
export const fieldId = (f: FormField): string => `assistant-${f}`

/** What a new assistant starts as: every tool, everything else as the settings say. */
export const blankForm = (): AssistantFormState => ({
  name: '',
  description: '',
  ownPrompt: false,
  systemPrompt: '',
  providerId: '',
  model: '',
  utilityModel: '',
  temperature: '',
  tools: {
    builtin: { mode: 'all', names: [] },
    mcp: { servers: {}, others: 'all' },
  },
  permissionPolicy: '',
  maxIterations: '',
  deadlineSeconds: '',
  workspace: '',
})

export function formFromDraft(a: AssistantDraft): AssistantFormState {
  return {
    name: a.name,
    description: a.description ?? '',
    ownPrompt: a.systemPrompt !== undefined,
    systemPrompt: a.systemPrompt ?? '',
    providerId: a.providerId ?? '',
    model: a.model ?? '',
    utilityModel: a.utilityModel ?? '',
    temperature: a.temperature === undefined ? '' : String(a.temperature),
    tools: structuredClone(a.tools),
    permissionPolicy: a.permissionPolicy ?? '',
    maxIterations: a.limits.maxIterations === undefined ? '' : String(a.limits.maxIterations),
    deadlineSeconds: a.limits.deadlineMs === undefined ? '' : String(a.limits.deadlineMs / 1000),
    workspace: a.workspace ?? '',
  }
}

const sameName = (a: string, b: string): boolean =>
  a.trim().toLocaleLowerCase() === b.trim().toLocaleLowerCase()

function numberProblem(text: string, min: number, max: number, whole: boolean): string | null {
  const n = Number(text)
  if (!Number.isFinite(n)) return 'Enter a number.'
  if (whole && !Number.isInteger(n)) return 'Enter a whole number.'
  if (n < min) return `At least ${min}.`
  if (n > max) return Number.isFinite(max) ? `At most ${max}.` : 'This number is too large.'
  return null
}

const LARGEST = Number.MAX_SAFE_INTEGER

/**
 * The draft the form holds, or what is wrong with it. `otherNames`: the names of the other
 * assistants (a name is unique, without case and surrounding spaces).
 */
export function checkForm(
  f: AssistantFormState,
  otherNames: readonly string[],
): { draft: AssistantDraft; errors: null } | { draft: null; errors: FormErrors } {
  const e: FormErrors = {}
  const name = f.name.trim()
  if (!name) e.name = 'Give the assistant a name.'
  else if (name.length > 100) e.name = 'At most 100 characters.'
  else if (otherNames.some((n) => sameName(n, name)))
    e.name = `There is already an assistant named “${name}”.`
  if (f.description.length > 2000) e.description = 'At most 2000 characters.'
  if (f.ownPrompt && f.systemPrompt.length > 100_000) e.systemPrompt = 'At most 100000 characters.'
  if (f.model.trim().length > 500) e.model = 'At most 500 characters.'
  if (f.utilityModel.trim().length > 500) e.utilityModel = 'At most 500 characters.'
  const temperature = f.temperature.trim()
  if (temperature) {
    const p = numberProblem(temperature, 0, 2, false)
    if (p) e.temperature = p
  }
  const maxIterations = f.maxIterations.trim()
  if (maxIterations) {
    const p = numberProblem(maxIterations, 1, LARGEST, true)
    if (p) e.maxIterations = p
  }
  const deadline = f.deadlineSeconds.trim()
  let deadlineMs: number | undefined
  if (deadline) {
    const p = numberProblem(deadline, 1, LARGEST / 1000, false)
    deadlineMs = Math.round(Number(deadline) * 1000)
    if (p) e.deadlineSeconds = p
    else if (Math.abs(deadlineMs - Number(deadline) * 1000) > 1e-6)
      e.deadlineSeconds = 'At most three decimals.'
  }
  const workspace = f.workspace.trim()
  const wp = absolutePathProblem(workspace)
  if (wp) e.workspace = wp
  if (f.tools.builtin.mode === 'some' && f.tools.builtin.names.length === 0)
    e.tools = 'Choose at least one built-in tool, or pick “No built-in tools”.'
  for (const [server, sel] of Object.entries(f.tools.mcp.servers))
    if (sel.mode === 'some' && sel.names.length === 0 && !e.tools)
      e.tools = `Choose at least one tool of ${server}, or pick “No tools” for it.`
  if (Object.keys(e).length > 0) return { draft: null, errors: e }

  const draft: AssistantDraft = {
    name,
    tools: f.tools,
    limits: {
      ...(maxIterations ? { maxIterations: Number(maxIterations) } : {}),
      ...(deadlineMs !== undefined ? { deadlineMs } : {}),
    },
  }
  if (f.description.trim()) draft.description = f.description.trim()
  if (f.ownPrompt) draft.systemPrompt = f.systemPrompt
  if (f.providerId) draft.providerId = f.providerId
  if (f.model.trim()) draft.model = f.model.trim()
  if (f.utilityModel.trim()) draft.utilityModel = f.utilityModel.trim()
  if (temperature) draft.temperature = Number(temperature)
  if (f.permissionPolicy) draft.permissionPolicy = f.permissionPolicy
  if (workspace) draft.workspace = workspace
  return { draft, errors: null }
}

/**
 * What the preview asks about: the tools, and the provider and model when they are valid
 * (not the name or the prompt, so typing those does not ask again).
 */
export function previewDraft(
  f: AssistantFormState,
  checked: AssistantDraft | null,
): AssistantDraft {
  return {
    name: 'Preview',
    tools: f.tools,
    limits: {},
    ...(checked?.providerId ? { providerId: checked.providerId } : {}),
    ...(checked?.model ? { model: checked.model } : {}),
  }
}

/** the form's field for a field of the draft the host names (the same but the deadline) */
function formField(key: string): FormField | null {
  if (key === 'deadlineMs') return 'deadlineSeconds'
  return FIELD_ORDER.find((f) => f === key) ?? null
}

/** the form's field for a path of the input (`assistant.limits.deadlineMs`) or of the assistant (`name`) */
function fieldOfPath(path: string): FormField | null {
  const parts = path.split('.')
  if (parts[0] === 'assistant') parts.shift()
  const key = parts[0] === 'limits' && parts[1] ? parts[1] : parts[0]
  return key ? formField(key) : null
}

/**
 * The fields a host's refusal names, each with its problem: a checked input's paths
 * (`details.fields` of `bad_request`), a taken name (`conflict`, `details.fields.name`).
 * Empty: the refusal is about the whole assistant (shown beside Save).
 */
export function refusalErrors(error: ErrorInfo): FormErrors {
  if (error.code !== 'bad_request' && error.code !== 'conflict') return {}
  const found: FormErrors = {}
  for (const [path, problem] of Object.entries(error.details?.fields ?? {})) {
    const field = fieldOfPath(path)
    if (field && !found[field]) found[field] = problem
  }
  return found
}
