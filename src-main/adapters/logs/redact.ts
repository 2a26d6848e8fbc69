/**
 * What a turn log must never contain: API keys and credentials. Header values whose
 * name looks sensitive are replaced, credentials in the base URL are replaced, and
 * every occurrence of a known secret (the configured API keys) anywhere in the logged
 * JSON becomes `[REDACTED]`.
 */
export const REDACTED = '[REDACTED]'

const SENSITIVE_NAME = /authorization|api[-_]?key|token|secret|cookie|password/i
/** query parameters that carry credentials (`?key=…` is common) */
const SENSITIVE_PARAM =
  /^(key|auth|sig|signature)$|authorization|api[-_]?key|token|secret|password/i
/** shorter strings are not credentials, and would blank out ordinary words */
const MIN_SECRET_LENGTH = 4

export function redactHeaders(
  headers: Record<string, string> | undefined,
): Record<string, string> | undefined {
  if (!headers) return undefined
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) {
    out[name] = SENSITIVE_NAME.test(name) ? REDACTED : value
  }
  return out
}

export function redactUrl(url: string): string {
  const u = URL.parse(url)
  if (!u) return url
  let changed = false
  if (u.password) {
    u.password = REDACTED
    changed = true
  }
  for (const name of [...u.searchParams.keys()]) {
    if (SENSITIVE_PARAM.test(name)) {
      u.searchParams.set(name, REDACTED)
      changed = true
    }
  }
  return changed ? u.toString() : url
}

/** The secrets worth looking for, longest first (so that no longer one is left half-done). */
export function usableSecrets(secrets: readonly string[]): string[] {
  return [
    ...new Set(secrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)),
  ].sort((a, b) => b.length - a.length)
}

function replaceAll(text: string, secrets: readonly string[]): string {
  let out = text
  for (const s of secrets) if (out.includes(s)) out = out.split(s).join(REDACTED)
  return out
}

/**
 * `JSON.stringify(value, null, 2)` with every secret replaced: inside strings while
 * serializing (so the JSON stays valid), then in the text as a last resort (a secret in
 * a property name, or in an escaped form).
 */
export function serializeRedacted(value: unknown, secrets: readonly string[]): string {
  const list = usableSecrets(secrets)
  if (list.length === 0) return JSON.stringify(value, null, 2)
  const text = JSON.stringify(
    value,
    (_k, v: unknown) => (typeof v === 'string' ? replaceAll(v, list) : v),
    2,
  )
  const escaped = usableSecrets(list.flatMap((s) => [s, JSON.stringify(s).slice(1, -1)]))
  return escaped.some((s) => text.includes(s)) ? replaceAll(text, escaped) : text
}
