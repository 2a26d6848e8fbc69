/**
 * A small glob matcher for search_files, matched against `/`-separated paths relative to
 * the search folder:
 * - `*` any characters within one path segment, `?` one character (never `/`);
 * - `**` as a whole segment: any number of segments, including none (`**` + `/*.ts`
 *   matches `a.ts` and `src/x/a.ts`); elsewhere it acts like `*`;
 * - `{a,b}` alternatives (nestable, may hold `/` and wildcards); `{a}` is literal;
 * - `[abc]`, `[a-z]`, `[!a-z]` / `[^a-z]` character classes; `\` escapes the next character.
 * Names starting with a dot are matched like any other. Matching is case-sensitive.
 */

const MAX_EXPANSIONS = 256

export function globToRegExp(pattern: string): RegExp {
  const cleaned = pattern.replace(/^(\.\/)+/, '')
  const alternatives = expandBraces(cleaned)
  const sources = alternatives.map(compileNoBraces)
  return new RegExp(`^(?:${sources.join('|')})$`)
}

/** Expands `{a,b}` groups into separate patterns (bounded). */
export function expandBraces(pattern: string): string[] {
  const group = findBraceGroup(pattern)
  if (!group) return [pattern]
  const { start, end, options } = group
  const head = pattern.slice(0, start)
  const tail = pattern.slice(end + 1)
  const out: string[] = []
  for (const option of options) {
    for (const expanded of expandBraces(head + option + tail)) {
      out.push(expanded)
      if (out.length > MAX_EXPANSIONS) {
        throw new Error(`the pattern has too many {…} alternatives (more than ${MAX_EXPANSIONS})`)
      }
    }
  }
  return out
}

/** The first `{…}` group with a top-level comma, with its options split. */
function findBraceGroup(p: string): { start: number; end: number; options: string[] } | null {
  for (let start = 0; start < p.length; start++) {
    const c = p[start]
    if (c === '\\') {
      start++
      continue
    }
    if (c === '[') {
      const close = classEnd(p, start)
      if (close !== -1) start = close
      continue
    }
    if (c !== '{') continue
    let depth = 0
    const commas: number[] = []
    for (let i = start; i < p.length; i++) {
      const d = p[i]
      if (d === '\\') {
        i++
      } else if (d === '{') {
        depth++
      } else if (d === '}') {
        depth--
        if (depth === 0) {
          if (commas.length === 0) break // `{a}`: literal, look further
          const bounds = [start, ...commas, i]
          const options = bounds.slice(0, -1).map((b, k) => p.slice(b + 1, bounds[k + 1]))
          return { start, end: i, options }
        }
      } else if (d === ',' && depth === 1) {
        commas.push(i)
      }
    }
  }
  return null
}

/** The index of the `]` closing the class that opens at `open`, or -1. */
function classEnd(p: string, open: number): number {
  let i = open + 1
  if (p[i] === '!' || p[i] === '^') i++
  if (p[i] === ']') i++ // a leading `]` is a member
  for (; i < p.length; i++) {
    if (p[i] === '\\') i++
    else if (p[i] === ']') return i
  }
  return -1
}

function compileNoBraces(pattern: string): string {
  const segments = pattern.split('/').filter((s, _i, all) => s !== '' || all.length === 1)
  let re = ''
  segments.forEach((seg, i) => {
    const last = i === segments.length - 1
    if (seg === '**') {
      re += last ? '.*' : '(?:[^/]+/)*'
      return
    }
    re += compileSegment(seg)
    if (!last) re += '/'
  })
  return re
}

function compileSegment(seg: string): string {
  let re = ''
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i]!
    if (c === '\\' && i + 1 < seg.length) {
      re += escapeRe(seg[++i]!)
    } else if (c === '*') {
      while (seg[i + 1] === '*') i++
      re += '[^/]*'
    } else if (c === '?') {
      re += '[^/]'
    } else if (c === '[') {
      const close = classEnd(seg, i)
      if (close === -1) {
        re += '\\['
        continue
      }
      re += `(?!/)${classToRe(seg.slice(i + 1, close))}`
      i = close
    } else {
      re += escapeRe(c)
    }
  }
  return re
}

function classToRe(body: string): string {
  let negate = false
  let i = 0
  if (body[0] === '!' || body[0] === '^') {
    negate = true
    i = 1
  }
  let out = ''
  for (; i < body.length; i++) {
    const c = body[i]!
    if (c === '\\' && i + 1 < body.length) out += `\\${body[++i]!}`
    else if (c === '-') out += '-'
    else out += /[\]\\^[]/.test(c) ? `\\${c}` : c
  }
  return `[${negate ? '^' : ''}${out}]`
}

function escapeRe(c: string): string {
  return /[.*+?^${}()|[\]\\/]/.test(c) ? `\\${c}` : c
}
