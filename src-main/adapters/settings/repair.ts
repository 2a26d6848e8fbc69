/**
 * Repairs a parsed settings object without losing more than the broken part: a missing
 * key takes its default; a value that breaks the schema is reset alone (for an object
 * with known fields, just the bad field; for a list, just the bad entries); unknown
 * keys are kept. Every reset is described in a warning. Pure: no I/O.
 */
import { z } from 'zod'
import { SETTINGS_FIELDS, defaultSettings, type Settings } from './schema'
import { checkValue, isPlainObject, preview } from './validate'

export interface RepairResult {
  settings: Settings
  /** one line per value that was reset or dropped */
  problems: string[]
  /** true when the result differs from the input (repairs or filled-in defaults) */
  changed: boolean
}

type Repaired = { value: unknown; problems: string[]; changed: boolean }

function reset(path: string, value: unknown, fallback: unknown, why: string): Repaired {
  const reason = why.startsWith(`${path} `) ? why.slice(path.length + 1) : why
  return {
    value: structuredClone(fallback),
    problems: [
      `"${path}" had an invalid value, ${preview(value)} (${reason}); it was reset to the default, ${preview(fallback)}`,
    ],
    changed: true,
  }
}

/** An object with known fields (e.g. `limits`): repair field by field, keep unknown fields. */
function repairFields(
  path: string,
  value: Record<string, unknown>,
  schema: z.ZodObject,
  fallback: unknown,
): Repaired {
  const props: Record<string, z.ZodType> = schema.shape
  const defaults = (isPlainObject(fallback) ? fallback : {}) as Record<string, unknown>
  const out: Record<string, unknown> = { ...value }
  const problems: string[] = []
  let changed = false
  for (const [field, fieldSchema] of Object.entries(props)) {
    const at = `${path}.${field}`
    if (!(field in out)) {
      if (field in defaults) {
        out[field] = structuredClone(defaults[field])
        changed = true
      }
      continue
    }
    const why = checkValue(fieldSchema, out[field], at)
    if (why === null) continue
    if (field in defaults) {
      const r = reset(at, out[field], defaults[field], why)
      out[field] = r.value
      problems.push(...r.problems)
    } else {
      problems.push(`"${at}" had an invalid value (${preview(out[field])}: ${why}); removed`)
      delete out[field]
    }
    changed = true
  }
  return { value: out, problems, changed }
}

/** A list (e.g. `providers`): drop the entries that break the item schema. */
function repairItems(path: string, value: unknown[], itemSchema: z.ZodType): Repaired {
  const problems: string[] = []
  const out = value.filter((item, i) => {
    const why = checkValue(itemSchema, item, `${path}[${i}]`)
    if (why !== null)
      problems.push(`"${path}[${i}]" was invalid (${preview(item)}: ${why}); removed`)
    return why === null
  })
  return { value: out, problems, changed: problems.length > 0 }
}

/** A map (e.g. `mcpServers`): drop the entries that break the value schema. */
function repairEntries(
  path: string,
  value: Record<string, unknown>,
  valueSchema: z.ZodType,
): Repaired {
  const problems: string[] = []
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) {
    const why = checkValue(valueSchema, v, `${path}.${k}`)
    if (why === null) out[k] = v
    else problems.push(`"${path}.${k}" was invalid (${preview(v)}: ${why}); removed`)
  }
  return { value: out, problems, changed: problems.length > 0 }
}

function repairValue(key: string, value: unknown, schema: z.ZodType, fallback: unknown): Repaired {
  const why = checkValue(schema, value, key)
  if (why === null) return { value, problems: [], changed: false }
  let partial: Repaired | null = null
  if (schema instanceof z.ZodObject && isPlainObject(value)) {
    partial = repairFields(key, value, schema, fallback)
  } else if (schema instanceof z.ZodArray && Array.isArray(value)) {
    partial = repairItems(key, value, schema.element as z.ZodType)
  } else if (schema instanceof z.ZodRecord && isPlainObject(value)) {
    partial = repairEntries(key, value, schema.valueType as z.ZodType)
  }
  // A partial repair that leaves the value valid is enough; otherwise reset it whole.
  if (partial && checkValue(schema, partial.value, key) === null) return partial
  return reset(key, value, fallback, why)
}

/** Repairs `raw` (already parsed JSON). A non-object yields the defaults, with a problem. */
export function repairSettings(raw: unknown): RepairResult {
  const defaults = defaultSettings() as unknown as Record<string, unknown>
  if (!isPlainObject(raw)) {
    return {
      settings: defaults as unknown as Settings,
      problems: [`the file held ${preview(raw)} instead of an object; started from the defaults`],
      changed: true,
    }
  }
  const out: Record<string, unknown> = { ...raw }
  const problems: string[] = []
  let changed = false
  for (const [key, schema] of Object.entries(SETTINGS_FIELDS) as [string, z.ZodType][]) {
    if (!(key in out)) {
      out[key] = defaults[key]
      changed = true
      continue
    }
    const r = repairValue(key, out[key], schema, defaults[key])
    out[key] = r.value
    problems.push(...r.problems)
    changed ||= r.changed
  }
  return { settings: out as unknown as Settings, problems, changed }
}
