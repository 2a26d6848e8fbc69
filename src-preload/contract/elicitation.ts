/**
 * The form an MCP server asks the user to fill in (`elicitation/create`, form mode): its
 * requested schema read into fields, the defaults, and the check of what the user typed.
 * The window, the CLI and the engine use the same rules. The schema is the server's text:
 * titles and descriptions are shown as text, and a string `pattern` is never run.
 */

export type ElicitFieldKind = 'text' | 'number' | 'integer' | 'boolean' | 'choice' | 'multi'

export interface ElicitOption {
  value: string
  label: string
}

export interface ElicitField {
  name: string
  kind: ElicitFieldKind
  label: string
  description: string
  required: boolean
  /** text: email, uri, date or date-time */
  format?: 'email' | 'uri' | 'date' | 'date-time'
  minimum?: number
  maximum?: number
  minLength?: number
  maxLength?: number
  /** multi: how many may be picked */
  minItems?: number
  maxItems?: number
  options: ElicitOption[]
  default?: string | number | boolean | string[]
}

/** What the user typed or picked, per field: text for text and numbers, a flag, a list. */
export type ElicitRaw = Record<string, string | boolean | string[]>
export type ElicitContent = Record<string, string | number | boolean | string[]>

/** What a person answers to an elicitation. */
export type ElicitAction = 'accept' | 'decline' | 'cancel'
export interface ElicitAnswer {
  action: ElicitAction
  content?: ElicitContent
}

const FORMATS = new Set(['email', 'uri', 'date', 'date-time'])

function obj(v: unknown): Record<string, unknown> | null {
  return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : null
}
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined)
const num = (v: unknown): number | undefined =>
  typeof v === 'number' && Number.isFinite(v) ? v : undefined

/** `enum` (+ legacy `enumNames`) or `oneOf`/`anyOf` of `{const, title}` */
function optionsOf(s: Record<string, unknown>): ElicitOption[] | null {
  if (Array.isArray(s['enum'])) {
    const names = Array.isArray(s['enumNames']) ? s['enumNames'] : []
    return s['enum'].map((v, i) => ({
      value: String(v),
      label: str(names[i]) ?? String(v),
    }))
  }
  const list = Array.isArray(s['oneOf'])
    ? s['oneOf']
    : Array.isArray(s['anyOf'])
      ? s['anyOf']
      : null
  if (!list) return null
  return list.map((o) => {
    const c = obj(o) ?? {}
    const value = String(c['const'] ?? '')
    return { value, label: str(c['title']) ?? value }
  })
}

/** The fields of a requested schema, in its order; an error when it is not a flat form. */
export function elicitationFields(
  schema: unknown,
): { ok: true; fields: ElicitField[] } | { ok: false; error: string } {
  const root = obj(schema)
  const props = obj(root?.['properties'])
  if (!root || !props) return { ok: false, error: 'the form has no fields' }
  const required = new Set(
    Array.isArray(root['required']) ? root['required'].filter((r) => typeof r === 'string') : [],
  )
  const fields: ElicitField[] = []
  for (const [name, raw] of Object.entries(props)) {
    const s = obj(raw)
    if (!s) return { ok: false, error: `the field "${name}" is not a schema` }
    const base = {
      name,
      label: str(s['title']) ?? name,
      description: str(s['description']) ?? '',
      required: required.has(name),
      options: [] as ElicitOption[],
    }
    const type = s['type']
    const def = s['default']
    if (type === 'array') {
      const items = obj(s['items']) ?? {}
      const options = optionsOf(items)
      if (!options) return { ok: false, error: `the field "${name}" is a list without choices` }
      const f: ElicitField = { ...base, kind: 'multi', options }
      if (num(s['minItems']) !== undefined) f.minItems = num(s['minItems'])!
      if (num(s['maxItems']) !== undefined) f.maxItems = num(s['maxItems'])!
      if (Array.isArray(def)) f.default = def.map(String)
      fields.push(f)
    } else if (type === 'string') {
      const options = optionsOf(s)
      const f: ElicitField = options
        ? { ...base, kind: 'choice', options }
        : { ...base, kind: 'text' }
      const format = str(s['format'])
      if (!options && format && FORMATS.has(format)) f.format = format as ElicitField['format']
      if (num(s['minLength']) !== undefined) f.minLength = num(s['minLength'])!
      if (num(s['maxLength']) !== undefined) f.maxLength = num(s['maxLength'])!
      if (typeof def === 'string') f.default = def
      fields.push(f)
    } else if (type === 'number' || type === 'integer') {
      const f: ElicitField = { ...base, kind: type }
      if (num(s['minimum']) !== undefined) f.minimum = num(s['minimum'])!
      if (num(s['maximum']) !== undefined) f.maximum = num(s['maximum'])!
      if (num(def) !== undefined) f.default = num(def)!
      fields.push(f)
    } else if (type === 'boolean') {
      const f: ElicitField = { ...base, kind: 'boolean' }
      if (typeof def === 'boolean') f.default = def
      fields.push(f)
    } else {
      return { ok: false, error: `the field "${name}" has a type Cairn cannot ask for` }
    }
  }
  return { ok: true, fields }
}

/** The form as it opens: each field's default, else empty (a flag unticked). */
export function initialValues(fields: readonly ElicitField[]): ElicitRaw {
  const out: ElicitRaw = {}
  for (const f of fields) {
    const d = f.default
    if (f.kind === 'boolean') out[f.name] = d === true
    else if (f.kind === 'multi') out[f.name] = Array.isArray(d) ? d : []
    else out[f.name] = d === undefined ? '' : String(d)
  }
  return out
}

/** Whether every required field has a default (a form that can be accepted unseen). */
export function requiredHaveDefaults(fields: readonly ElicitField[]): boolean {
  return fields.every((f) => !f.required || f.default !== undefined)
}

function isEmail(v: string): boolean {
  const at = v.indexOf('@')
  if (at < 1 || at !== v.lastIndexOf('@') || /\s/.test(v)) return false
  const domain = v.slice(at + 1)
  return (
    domain.length > 2 && domain.includes('.') && !domain.startsWith('.') && !domain.endsWith('.')
  )
}

function isUri(v: string): boolean {
  try {
    return /^[a-z][a-z0-9+.-]*:/i.test(v) && new URL(v).protocol.length > 1
  } catch {
    return false
  }
}

function isDate(v: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(v)) return false
  const d = new Date(`${v}T00:00:00Z`)
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === v
}

function isDateTime(v: string): boolean {
  return (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})?$/.test(v) &&
    !Number.isNaN(new Date(v).getTime())
  )
}

function checkText(f: ElicitField, v: string): string | null {
  if (f.minLength !== undefined && v.length < f.minLength)
    return `At least ${f.minLength} characters.`
  if (f.maxLength !== undefined && v.length > f.maxLength)
    return `At most ${f.maxLength} characters.`
  if (f.format === 'email' && !isEmail(v)) return 'An email address, like name@example.com.'
  if (f.format === 'uri' && !isUri(v)) return 'An address, like https://example.com.'
  if (f.format === 'date' && !isDate(v)) return 'A date, like 2025-01-31.'
  if (f.format === 'date-time' && !isDateTime(v)) return 'A date and time, like 2025-01-31T09:30Z.'
  return null
}

function checkNumber(f: ElicitField, text: string): { value?: number; error?: string } {
  const t = text.trim()
  const n = t === '' ? NaN : Number(t)
  if (!Number.isFinite(n)) return { error: f.kind === 'integer' ? 'A whole number.' : 'A number.' }
  if (f.kind === 'integer' && !Number.isInteger(n)) return { error: 'A whole number.' }
  if (f.minimum !== undefined && n < f.minimum) return { error: `At least ${f.minimum}.` }
  if (f.maximum !== undefined && n > f.maximum) return { error: `At most ${f.maximum}.` }
  return { value: n }
}

/**
 * Checks what the user gave. An empty optional field is left out of the answer; a flag is
 * always sent. Returns the content to send, or an error per field.
 */
export function checkElicitation(
  fields: readonly ElicitField[],
  raw: ElicitRaw,
): { ok: true; content: ElicitContent } | { ok: false; errors: Record<string, string> } {
  const content: ElicitContent = {}
  const errors: Record<string, string> = {}
  for (const f of fields) {
    const v = raw[f.name]
    if (f.kind === 'boolean') {
      content[f.name] = v === true
      continue
    }
    if (f.kind === 'multi') {
      const picked = Array.isArray(v) ? v : []
      const known = new Set(f.options.map((o) => o.value))
      if (picked.some((p) => !known.has(p))) errors[f.name] = 'Pick from the list.'
      else if (picked.length === 0 && !f.required) continue
      else if (f.minItems !== undefined && picked.length < f.minItems)
        errors[f.name] = `Pick at least ${f.minItems}.`
      else if (f.maxItems !== undefined && picked.length > f.maxItems)
        errors[f.name] = `Pick at most ${f.maxItems}.`
      else if (picked.length === 0) errors[f.name] = 'Pick at least one.'
      else content[f.name] = picked
      continue
    }
    const text = typeof v === 'string' ? v : ''
    if (text.trim() === '') {
      if (f.required) errors[f.name] = 'Required.'
      continue
    }
    if (f.kind === 'choice') {
      if (!f.options.some((o) => o.value === text)) errors[f.name] = 'Pick from the list.'
      else content[f.name] = text
    } else if (f.kind === 'number' || f.kind === 'integer') {
      const r = checkNumber(f, text)
      if (r.error) errors[f.name] = r.error
      else content[f.name] = r.value!
    } else {
      const e = checkText(f, text)
      if (e) errors[f.name] = e
      else content[f.name] = text
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content }
}

/** An answer's content as the form holds it (numbers as text), to check it again. */
export function asRaw(content: Readonly<Record<string, unknown>>): ElicitRaw {
  const out: ElicitRaw = {}
  for (const [k, v] of Object.entries(content)) {
    if (typeof v === 'boolean' || typeof v === 'string') out[k] = v
    else if (typeof v === 'number') out[k] = String(v)
    else if (Array.isArray(v)) out[k] = v.map(String)
  }
  return out
}

/**
 * The answer that may go to the server: an accepted form is checked against its schema
 * (and reduced to its fields); an answer that does not fit is an error.
 */
export function settleAnswer(
  schema: unknown,
  answer: ElicitAnswer,
): { ok: true; answer: ElicitAnswer } | { ok: false; error: string } {
  if (answer.action !== 'accept' || schema === undefined)
    return { ok: true, answer: { action: answer.action } }
  const read = elicitationFields(schema)
  if (!read.ok) return { ok: false, error: read.error }
  const checked = checkElicitation(read.fields, asRaw(answer.content ?? {}))
  if (!checked.ok) {
    const [name, why] = Object.entries(checked.errors)[0]!
    return { ok: false, error: `${name}: ${why}` }
  }
  return { ok: true, answer: { action: 'accept', content: checked.content } }
}
