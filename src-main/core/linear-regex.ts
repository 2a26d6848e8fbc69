/**
 * Regular expressions from untrusted sources (the model, MCP servers' schemas, the user's
 * search text) run on RE2 (compiled to WebAssembly): matching takes time linear in the
 * input, so no pattern can stall the event loop the way `^(a+)+$` does on V8's
 * backtracking engine. RE2 has no lookarounds and no backreferences; such a pattern is
 * refused with RE2's message, never run on V8.
 *
 * This RE2 build has a fixed 16 MB heap: each compiled pattern lives there until it is
 * disposed of, and each input is copied there to be matched. So callers dispose of the
 * patterns they compile for one use, and inputs above MAX_INPUT_CHARS are not matched
 * (`test` says false). A pattern RE2 refuses keeps a little of that heap (tens of
 * thousands of refusals would fill it; then every compile fails with a message).
 */
import { RE2 } from 're2-wasm'

/** What the callers need of a compiled pattern. */
export interface LinearRegExp {
  /** false for inputs longer than MAX_INPUT_CHARS */
  test(input: string): boolean
  /** frees the compiled pattern; it must not be used afterwards */
  dispose(): void
  readonly source: string
  readonly flags: string
}

/** RE2 rejects patterns whose compiled program outgrows its memory budget; this caps the text. */
export const MAX_PATTERN_CHARS = 10_000
/** the longest input matched (it is copied into RE2's heap as UTF-8) */
export const MAX_INPUT_CHARS = 1_000_000

/** The embind object behind re2-wasm's RE2, which holds the compiled program. */
interface WithWrapper {
  wrapper?: { delete?: () => void }
}

class Linear implements LinearRegExp {
  private disposed = false

  constructor(private readonly re: RE2) {}

  get source(): string {
    return this.re.source
  }

  get flags(): string {
    return this.re.flags
  }

  test(input: string): boolean {
    if (this.disposed) throw new Error('this regular expression was disposed of')
    if (input.length > MAX_INPUT_CHARS) return false
    return this.re.test(input)
  }

  dispose(): void {
    if (this.disposed) return
    this.disposed = true
    ;(this.re as unknown as WithWrapper).wrapper?.delete?.()
  }
}

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
    return new Linear(new RE2(pattern, wanted))
  } catch (e) {
    throw new SyntaxError(e instanceof Error ? e.message : String(e))
  }
}

/**
 * For ajv's `code.regExp` option: schema `pattern` and `patternProperties` keywords are
 * compiled with RE2 (and kept with the compiled schema). ajv calls it with the pattern and
 * its flags (`u`); `code` names it in standalone code, which Cairn does not generate.
 */
export const linearRegExpForAjv = Object.assign(
  (pattern: string, flags: string): LinearRegExp => linearRegExp(pattern, flags),
  { code: 'linearRegExp' },
)
