/**
 * Tools whose `x-mcp-header` declarations break the rules of spec 2026-07-28 (Streamable
 * HTTP, "custom headers from tool parameters"): the SDK mirrors a declared argument into an
 * `Mcp-Param-<Name>` header, and a tool whose declarations cannot be mirrored MUST be left
 * out of the list (the others stay usable). Cairn reads a server's tool list page by page
 * itself, so it applies the same rules as the SDK does to the lists it aggregates:
 *
 * - a declaration sits on a property reached through `properties` only (not under `items`,
 *   `anyOf`, `$defs`, …), never on the root;
 * - its value is a non-empty RFC 9110 token, unique in the tool without regard to case;
 * - the property's type is `string`, `integer` or `boolean`.
 */

const KEY = 'x-mcp-header'
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/
const PRIMITIVE = new Set(['string', 'integer', 'boolean'])
/** subschemas a declaration may not be under (the first four hold name → subschema maps) */
const MAPS = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions'])
const UNREACHABLE = [
  ...MAPS,
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
]
/** deeper than this, a schema is not walked further (and is refused) */
const MAX_DEPTH = 64

/** Why the tool's `x-mcp-header` declarations are invalid, or null when they are fine. */
export function invalidHeaderDeclaration(inputSchema: unknown): string | null {
  const seen = new Map<string, string>()
  const visit = (node: unknown, path: string[], reachable: boolean): string | null => {
    if (node === null || typeof node !== 'object') return null
    if (path.length > MAX_DEPTH) return 'the schema is nested too deeply to check'
    const schema = node as Record<string, unknown>
    const where = path.length === 0 ? '<root>' : path.join('.')
    if (KEY in schema) {
      if (!reachable || path.length === 0)
        return `${where}: ${KEY} is only allowed on a property reached through "properties"`
      const name = schema[KEY]
      if (typeof name !== 'string' || name === '')
        return `${where}: ${KEY} must be a non-empty string`
      if (!TOKEN.test(name)) return `${where}: ${KEY} "${name}" is not a valid header name`
      const type = typeof schema['type'] === 'string' ? schema['type'] : '<none>'
      if (!PRIMITIVE.has(type))
        return `${where}: ${KEY} is only allowed on string, integer or boolean properties (this one is ${type})`
      const before = seen.get(name.toLowerCase())
      if (before !== undefined) return `${KEY} "${name}" is declared twice (also as "${before}")`
      seen.set(name.toLowerCase(), name)
    }
    const props = schema['properties']
    if (props !== null && typeof props === 'object') {
      for (const [key, child] of Object.entries(props)) {
        const fault = visit(child, [...path, key], reachable)
        if (fault) return fault
      }
    }
    for (const k of UNREACHABLE) {
      const sub = schema[k]
      if (sub === undefined) continue
      const branches = Array.isArray(sub)
        ? sub
        : MAPS.has(k) && sub !== null && typeof sub === 'object'
          ? Object.values(sub)
          : [sub]
      for (const b of branches) {
        const fault = visit(b, [...path, `<${k}>`], false)
        if (fault) return fault
      }
    }
    return null
  }
  return visit(inputSchema, [], true)
}
