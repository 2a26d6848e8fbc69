/**
 * Globs for search_files, matched against `/`-separated paths relative to the search
 * folder. picomatch parses the glob (`*`, `**`, `?`, `{a,b}`, `{1..3}`, `[a-z]`, `[!a-z]`,
 * `\` escapes; names starting with a dot match like any other; `src/**` matches `src`
 * itself too) and turns it into a regular expression; that expression runs on RE2, never on
 * V8, because a glob is model input and picomatch passes regex groups through (`(a+)+b`).
 *
 * picomatch guards against `.` and `..` path segments with lookaheads, which RE2 does not
 * have. The paths matched here come from a directory walk and never hold such segments nor
 * empty ones, so those guards are removed before RE2 compiles the expression. Extglobs
 * (`!(x)`, `+(x)`) and a leading `!` (negation) are off: they need lookarounds.
 */
import picomatch from 'picomatch'
import { linearRegExp, type LinearRegExp } from '../../core/linear-regex'

export const MAX_GLOB_CHARS = 1000

const OPTIONS: picomatch.PicomatchOptions = {
  dot: true,
  posix: true,
  noextglob: true,
  nonegate: true,
  strictBrackets: false,
}

/** The lookarounds picomatch adds that always hold for a walked path (see the header). */
const PATH_GUARDS = ['(?!\\.{1,2}(?:\\/|$))', '(?!(?:^|\\/)\\.{1,2}(?:\\/|$))', '(?=.)']

/** A matcher for normalized relative paths; `dispose` frees its compiled expression. */
export type GlobMatcher = ((relPath: string) => boolean) & { dispose(): void }

/** A matcher for normalized relative paths (no `.`, `..` or empty segments). */
export function compileGlob(pattern: string): GlobMatcher {
  if (pattern.length > MAX_GLOB_CHARS) {
    throw new Error(`the pattern is longer than ${MAX_GLOB_CHARS} characters`)
  }
  const source = picomatch.makeRe(pattern, OPTIONS).source
  let linear = source
  for (const guard of PATH_GUARDS) linear = linear.split(guard).join('')
  let re: LinearRegExp
  try {
    re = linearRegExp(linear)
  } catch (e) {
    throw new Error(
      `it uses a feature search_files does not support (${e instanceof Error ? e.message : String(e)})`,
    )
  }
  const matcher = (relPath: string): boolean => relPath === pattern || re.test(relPath)
  return Object.assign(matcher, { dispose: () => re.dispose() })
}
