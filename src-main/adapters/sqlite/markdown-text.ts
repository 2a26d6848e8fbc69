/**
 * Text the export did not write (a model's answer, its reasoning, a tool's name, a title) as
 * Markdown that another viewer shows as text: no HTML of its own (`<` becomes `&lt;`), no
 * heading of its own (a `#` that would start one, and a setext underline, are escaped with a
 * backslash), and a code fence it leaves open is closed at its end, so what follows stays the
 * export's. Fenced code blocks and code spans stay code, as they were. One pass over each line,
 * no regular expression: the text is hostile.
 */

interface Fence {
  char: string
  length: number
}

/** the fence a line opens (up to three spaces, then ``` or ~~~ or longer), or null */
function openingFence(line: string): Fence | null {
  let i = 0
  while (i < 3 && line[i] === ' ') i++
  const char = line[i]
  if (char !== '`' && char !== '~') return null
  let length = 0
  while (line[i + length] === char) length++
  if (length < 3) return null
  // an info string of a backtick fence holds no backtick
  if (char === '`' && line.indexOf('`', i + length) !== -1) return null
  return { char, length }
}

/** whether `line` closes `fence`: the same character, at least as many, spaces only after */
function closesFence(line: string, fence: Fence): boolean {
  let i = 0
  while (i < 3 && line[i] === ' ') i++
  let length = 0
  while (line[i + length] === fence.char) length++
  if (length < fence.length) return false
  return line.slice(i + length).trim() === ''
}

/** `line` with `<` outside code spans written as `&lt;` */
function escapeHtml(line: string): string {
  // the backtick runs of the line, and for each the next run of the same length
  const runs: { at: number; length: number }[] = []
  for (let i = 0; i < line.length;) {
    if (line[i] !== '`') {
      i++
      continue
    }
    let length = 0
    while (line[i + length] === '`') length++
    runs.push({ at: i, length })
    i += length
  }
  const nextSame = new Array<number>(runs.length).fill(-1)
  const lastOf = new Map<number, number>()
  for (let k = runs.length - 1; k >= 0; k--) {
    nextSame[k] = lastOf.get(runs[k]!.length) ?? -1
    lastOf.set(runs[k]!.length, k)
  }
  let out = ''
  let at = 0
  let k = 0
  const plain = (to: number): void => {
    out += line.slice(at, to).replaceAll('<', '&lt;')
    at = to
  }
  while (k < runs.length) {
    const close = nextSame[k]!
    if (close === -1) {
      k++
      continue
    }
    // a code span: kept as it is
    plain(runs[k]!.at)
    const end = runs[close]!.at + runs[close]!.length
    out += line.slice(at, end)
    at = end
    k = close + 1
  }
  plain(line.length)
  return out
}

/** a line that would be a heading (or a setext underline) starts with a backslash instead */
function escapeHeading(line: string): string {
  let i = 0
  while (i < 3 && line[i] === ' ') i++
  // inside block quotes too
  while (line[i] === '>' || line[i] === ' ') i++
  if (line[i] === '#') return `${line.slice(0, i)}\\${line.slice(i)}`
  const rest = line.trim()
  if (rest !== '' && (/^=+$/.test(rest) || /^-+$/.test(rest))) {
    const at = line.indexOf(rest[0]!)
    return `${line.slice(0, at)}\\${line.slice(at)}`
  }
  return line
}

/** A block of text (a message, a reasoning) as safe Markdown; code stays code. */
export function markdownText(text: string): string {
  const out: string[] = []
  let fence: Fence | null = null
  for (const line of text.split('\n')) {
    if (fence) {
      out.push(line)
      if (closesFence(line, fence)) fence = null
      continue
    }
    fence = openingFence(line)
    out.push(fence ? line : escapeHeading(escapeHtml(line)))
  }
  if (fence) out.push(fence.char.repeat(fence.length))
  return out.join('\n')
}

/** Text within a line the export wrote (a title, a name): one line, no HTML. */
export function inlineText(text: string): string {
  return text.replace(/[\r\n]+/g, ' ').replaceAll('<', '&lt;')
}

/** Text as a code span, whatever backticks it holds (on one line). */
export function codeSpan(text: string): string {
  const line = text.replace(/[\r\n]+/g, ' ')
  let longest = 0
  let run = 0
  for (const c of line) {
    run = c === '`' ? run + 1 : 0
    longest = Math.max(longest, run)
  }
  const f = '`'.repeat(longest + 1)
  const pad = line.startsWith('`') || line.endsWith('`') ? ' ' : ''
  return `${f}${pad}${line}${pad}${f}`
}
