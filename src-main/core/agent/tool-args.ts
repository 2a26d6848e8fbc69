import { Ajv, type ValidateFunction } from 'ajv'
import { linearRegExpForAjv } from '../linear-regex'
import { withDefaultsOptional } from './schema-defaults'

/**
 * Tool-call arguments are checked before anyone is asked to approve them: valid JSON, an
 * object, no prototype-polluting keys, and valid against the tool's JSON schema. A call the
 * server would accept is never refused here: a required property that has a default in the
 * schema may be left out (the server fills it in), see `schema-defaults.ts`.
 */
export type ArgsCheck =
  | { ok: true; value: Record<string, unknown> }
  | { ok: false; value: Record<string, unknown> | null; problem: string }

const FORBIDDEN_KEYS = new Set(['__proto__', 'constructor', 'prototype'])

// A server's `pattern` runs on RE2 (linear time): a hostile one cannot stall the process.
const ajv = new Ajv({
  strict: false,
  allErrors: true,
  validateFormats: false,
  code: { regExp: linearRegExpForAjv },
})
const validators = new Map<string, ValidateFunction | null>()

function validatorFor(schema: Record<string, unknown>): ValidateFunction | null {
  const key = JSON.stringify(schema)
  let v = validators.get(key)
  if (v === undefined) {
    // `$schema` names drafts ajv's default build does not load; the keywords are what matter.
    const { $schema: _ignored, ...rest } = schema
    try {
      v = ajv.compile(withDefaultsOptional(rest) as Record<string, unknown>)
    } catch {
      v = null // a schema ajv cannot compile is not the model's fault: skip validation
    }
    validators.set(key, v)
  }
  return v
}

export function parseToolArguments(raw: string): { value: unknown } | { error: string } {
  if (raw.trim() === '') return { value: {} }
  try {
    return { value: JSON.parse(raw) as unknown }
  } catch (e) {
    return { error: `the arguments are not valid JSON (${(e as Error).message})` }
  }
}

function findForbiddenKey(value: unknown, path: string): string | null {
  if (value === null || typeof value !== 'object') return null
  for (const key of Object.keys(value)) {
    if (FORBIDDEN_KEYS.has(key)) return `${path}${key}`
    const inner = findForbiddenKey((value as Record<string, unknown>)[key], `${path}${key}.`)
    if (inner) return inner
  }
  return null
}

export function checkToolArguments(raw: string, schema: Record<string, unknown>): ArgsCheck {
  const parsed = parseToolArguments(raw)
  if ('error' in parsed) return { ok: false, value: null, problem: parsed.error }
  const value = parsed.value
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, value: null, problem: 'the arguments must be a JSON object' }
  }
  const obj = value as Record<string, unknown>
  const forbidden = findForbiddenKey(obj, '')
  if (forbidden) {
    return { ok: false, value: null, problem: `the key "${forbidden}" is not allowed` }
  }
  const validate = validatorFor(schema)
  if (validate && !validate(obj)) {
    const details = (validate.errors ?? [])
      .slice(0, 5)
      .map((e) => `${e.instancePath || '(root)'} ${e.message ?? 'is invalid'}`)
      .join('; ')
    return { ok: false, value: obj, problem: `the arguments do not match the schema: ${details}` }
  }
  return { ok: true, value: obj }
}
