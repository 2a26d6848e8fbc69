/**
 * JSON-schema validation of settings values, with readable error messages. Uses the
 * same validator as conf (ajv, draft 2020-12), so both judge a file the same way.
 */
import { Ajv2020 } from 'ajv/dist/2020.js'
import type { ErrorObject, ValidateFunction } from 'ajv'
import { SETTINGS_ROOT_SCHEMA, type JsonSchema } from './schema'

const ajv = new Ajv2020({ allErrors: true })
const compiled = new WeakMap<JsonSchema, ValidateFunction>()

function validatorFor(schema: JsonSchema): ValidateFunction {
  let fn = compiled.get(schema)
  if (!fn) {
    fn = ajv.compile(schema)
    compiled.set(schema, fn)
  }
  return fn
}

/** `/limits/maxIterations` → `limits.maxIterations`; `/providers/0/id` → `providers[0].id` */
export function jsonPointerToPath(prefix: string, pointer: string): string {
  let out = prefix
  for (const raw of pointer.split('/').slice(1)) {
    const part = raw.replace(/~1/g, '/').replace(/~0/g, '~')
    out += /^\d+$/.test(part) ? `[${part}]` : out ? `.${part}` : part
  }
  return out
}

function describeErrors(prefix: string, errors: ErrorObject[]): string {
  const lines = new Set<string>()
  for (const e of errors) {
    const at = jsonPointerToPath(prefix, e.instancePath) || '(root)'
    const allowed =
      e.keyword === 'enum'
        ? ` (${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')})`
        : ''
    lines.add(`${at} ${e.message ?? 'is invalid'}${allowed}`)
  }
  return [...lines].join('; ')
}

/** Returns null when `value` is valid, else a readable description of the problems. */
export function checkValue(schema: JsonSchema, value: unknown, path = ''): string | null {
  const fn = validatorFor(schema)
  if (fn(value)) return null
  return describeErrors(path, fn.errors ?? [])
}

/** The whole settings object (every known key present and valid). */
export function checkSettings(value: unknown): string | null {
  return checkValue(SETTINGS_ROOT_SCHEMA, value)
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** A short rendering of a value for a warning. */
export function preview(value: unknown): string {
  let text: string
  try {
    text = JSON.stringify(value) ?? String(value)
  } catch {
    text = String(value)
  }
  return text.length > 60 ? `${text.slice(0, 57)}...` : text
}
