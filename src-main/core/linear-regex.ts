/**
 * Regular expressions from untrusted sources (the model, MCP servers' schemas, the user's
 * search text) run on RE2 (compiled to WebAssembly): matching takes time linear in the
 * input, so no pattern can stall the event loop the way `^(a+)+$` does on V8's
 * backtracking engine. RE2 has no lookarounds and no backreferences; such a pattern is
 * refused with RE2's message, never run on V8.
 */
import { RE2 } from 're2-wasm'

/** What the callers need of a compiled pattern. */
export interface LinearRegExp {
  test(input: string): boolean
  readonly source: string
  readonly flags: string
}

/** RE2 rejects patterns whose compiled program outgrows its memory budget; this caps the text. */
export const MAX_PATTERN_CHARS = 10_000

/**
 * Compiles `pattern` for RE2. `flags` may hold `i`, `m`, `s` (and `u`, always added: RE2
 * works on Unicode code points). Throws a SyntaxError for a pattern RE2 cannot run.
 */
export function linearRegExp(pattern: string, flags = ''): LinearRegExp {
  if (pattern.length > MAX_PATTERN_CHARS) {
    throw new SyntaxError(`the pattern is longer than ${MAX_PATTERN_CHARS} characters`)
  }
  const wanted = [...new Set(`${flags}u`.replace(/[^imsu]/g, ''))].join('')
  try {
    return new RE2(pattern, wanted)
  } catch (e) {
    throw new SyntaxError(e instanceof Error ? e.message : String(e))
  }
}

/**
 * For ajv's `code.regExp` option: schema `pattern` and `patternProperties` keywords are
 * compiled with RE2. ajv calls it with the pattern and its flags (`u`); `code` names it in
 * standalone code, which Cairn does not generate.
 */
export const linearRegExpForAjv = Object.assign(
  (pattern: string, flags: string): LinearRegExp => linearRegExp(pattern, flags),
  { code: 'linearRegExp' },
)
