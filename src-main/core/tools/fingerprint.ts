import { createHash } from 'node:crypto'
import { canonicalJson } from '../agent/canonical-json'

/** A short stable hash of any JSON value (object keys sorted). */
export function fingerprintOf(value: unknown): string {
  return createHash('sha256').update(canonicalJson(value)).digest('hex').slice(0, 32)
}

/**
 * What an "always allow" rule is bound to: the server's configuration and the tool's
 * description and input schema. When either changes, Cairn asks again.
 */
export function toolFingerprint(
  configFingerprint: string,
  tool: { description: string; inputSchema: Record<string, unknown> },
): string {
  return fingerprintOf({
    config: configFingerprint,
    description: tool.description,
    schema: tool.inputSchema,
  })
}
