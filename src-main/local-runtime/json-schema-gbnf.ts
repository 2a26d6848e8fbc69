/**
 * A tool's JSON Schema (from an MCP server or a built-in tool: any schema at all) as the
 * subset node-llama-cpp turns into a grammar. What the subset has is kept (types, objects
 * with their properties, arrays, enums, constants, alternatives, string lengths); what it
 * has not (`$ref`, patterns, numeric bounds, conditionals) becomes the loosest schema that
 * still holds it, so the model may write any valid arguments and the tool checks them.
 * Depth and breadth are bounded: a hostile schema cannot make the grammar explode.
 */
import type { GbnfJsonSchema } from 'node-llama-cpp'

const MAX_DEPTH = 8
const MAX_PROPERTIES = 200
const MAX_ALTERNATIVES = 20
const BASIC = ['string', 'number', 'integer', 'boolean', 'null'] as const
type Basic = (typeof BASIC)[number]

/** any JSON value, a level deep: deeper values are any JSON too (objects with any keys) */
const ANY: GbnfJsonSchema = {
  oneOf: [
    { type: ['string', 'number', 'boolean', 'null'] },
    { type: 'array', items: { type: ['string', 'number', 'boolean', 'null'] } },
    { type: 'object', additionalProperties: true },
  ],
}

type Json = Record<string, unknown>

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

function scalar(v: unknown): v is string | number | boolean | null {
  return v === null || ['string', 'number', 'boolean'].includes(typeof v)
}

function describe(s: Json, g: GbnfJsonSchema): GbnfJsonSchema {
  return typeof s['description'] === 'string' && s['description'].length <= 2_000
    ? ({ ...g, description: s['description'] } as GbnfJsonSchema)
    : g
}

function objectSchema(s: Json, depth: number): GbnfJsonSchema {
  const props = isObject(s['properties']) ? Object.entries(s['properties']) : []
  const required = new Set(
    Array.isArray(s['required']) ? s['required'].filter((k) => typeof k === 'string') : [],
  )
  const properties: Record<string, GbnfJsonSchema> = {}
  const optional: Record<string, GbnfJsonSchema> = {}
  for (const [key, value] of props.slice(0, MAX_PROPERTIES)) {
    const converted = convert(value, depth + 1)
    if (required.has(key)) properties[key] = converted
    else optional[key] = converted
  }
  const extra = s['additionalProperties']
  // unsaid: only the listed keys (a model writes better arguments to a closed object)
  const additional: boolean | GbnfJsonSchema =
    extra === true ? true : isObject(extra) ? convert(extra, depth + 1) : false
  const loose = Object.values(optional)
  // the grammar writes every listed key: optional keys may be written as extra keys instead
  // (values of their schemas), so the model can leave them out
  if (loose.length === 0) return { type: 'object', properties, additionalProperties: additional }
  const extras = [...loose, ...(additional === true ? [ANY] : additional ? [additional] : [])]
  return {
    type: 'object',
    properties,
    additionalProperties: { oneOf: extras.slice(0, MAX_ALTERNATIVES) },
  } as GbnfJsonSchema
}

function typed(s: Json, type: string, depth: number): GbnfJsonSchema {
  switch (type) {
    case 'object':
      return objectSchema(s, depth)
    case 'array':
      return { type: 'array', items: isObject(s['items']) ? convert(s['items'], depth + 1) : ANY }
    case 'string': {
      const min = s['minLength']
      const max = s['maxLength']
      return {
        type: 'string',
        ...(Number.isInteger(min) ? { minLength: min as number } : {}),
        ...(Number.isInteger(max) ? { maxLength: max as number } : {}),
      }
    }
    default:
      return (BASIC as readonly string[]).includes(type) ? { type: type as Basic } : ANY
  }
}

function convert(schema: unknown, depth: number): GbnfJsonSchema {
  if (schema === true || !isObject(schema) || depth > MAX_DEPTH) return ANY
  const s = schema
  if ('const' in s && scalar(s['const'])) return describe(s, { const: s['const'] })
  if (Array.isArray(s['enum'])) {
    const values = s['enum'].filter(scalar)
    if (values.length > 0) return describe(s, { enum: values })
  }
  const alternatives = Array.isArray(s['anyOf'])
    ? s['anyOf']
    : Array.isArray(s['oneOf'])
      ? s['oneOf']
      : null
  if (alternatives && alternatives.length > 0) {
    return describe(s, {
      oneOf: alternatives.slice(0, MAX_ALTERNATIVES).map((a) => convert(a, depth + 1)),
    })
  }
  const type = s['type']
  if (typeof type === 'string') return describe(s, typed(s, type, depth))
  if (Array.isArray(type) && type.length > 0) {
    const names = type.filter((t): t is string => typeof t === 'string')
    if (names.every((t) => (BASIC as readonly string[]).includes(t)))
      return describe(s, { type: names as Basic[] })
    return describe(s, { oneOf: names.slice(0, MAX_ALTERNATIVES).map((t) => typed(s, t, depth)) })
  }
  if (isObject(s['properties'])) return describe(s, objectSchema(s, depth))
  return ANY
}

/** A tool's parameters schema as node-llama-cpp's grammar schema (always an object). */
export function toGbnfSchema(parameters: Record<string, unknown>): GbnfJsonSchema {
  const converted = convert({ type: 'object', ...parameters }, 0)
  return converted
}
