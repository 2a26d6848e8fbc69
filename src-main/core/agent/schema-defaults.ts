/**
 * Servers' schemas often list a property as required and give it a default at once, and
 * accept a call that leaves it out (the default applies). For checking a call, such a
 * property counts as filled: this returns a copy of the schema whose `required` lists leave
 * out every property that has a `default`. Types, patterns and everything else still apply.
 */

/** keywords whose value is one subschema */
const ONE = [
  'items',
  'additionalItems',
  'additionalProperties',
  'unevaluatedItems',
  'unevaluatedProperties',
  'contains',
  'propertyNames',
  'not',
  'if',
  'then',
  'else',
] as const
/** keywords whose value is a list of subschemas */
const LIST = ['allOf', 'anyOf', 'oneOf', 'prefixItems', 'items'] as const
/** keywords whose value maps names to subschemas */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'] as const

/** how deep a schema is followed; deeper parts are kept as they are */
const MAX_DEPTH = 64

export function withDefaultsOptional(schema: unknown, depth = 0): unknown {
  if (!isObject(schema) || depth > MAX_DEPTH) return schema
  const out: Record<string, unknown> = { ...schema }
  for (const k of ONE) if (isObject(out[k])) out[k] = withDefaultsOptional(out[k], depth + 1)
  for (const k of LIST) {
    const v = out[k]
    if (Array.isArray(v)) out[k] = v.map((s) => withDefaultsOptional(s, depth + 1))
  }
  for (const k of MAP) {
    const v = out[k]
    if (!isObject(v)) continue
    const mapped: Record<string, unknown> = {}
    for (const [name, s] of Object.entries(v)) mapped[name] = withDefaultsOptional(s, depth + 1)
    out[k] = mapped
  }
  const props = schema['properties']
  const required = schema['required']
  if (Array.isArray(required) && isObject(props)) {
    out['required'] = required.filter((name) => {
      if (typeof name !== 'string' || !Object.hasOwn(props, name)) return true
      const prop = props[name]
      return !(isObject(prop) && Object.hasOwn(prop, 'default'))
    })
  }
  return out
}

function isObject(v: unknown): v is Record<string, unknown> {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
}
