/**
 * Finds the tags of an HTML page in time linear in its length, whatever the page holds:
 * fetch_url passes pages of the model's choosing, and a regular expression for tags
 * backtracks quadratically over broken markup (`<a<a<a…` without a `>`), which would stall
 * the process for minutes.
 *
 * Every search moves forward only: the next `<`, `>` and quote are looked up from a cursor
 * that never goes back (the quote and `>` lookups are cached), and a tag that never closes
 * ends the scan (the rest of the page is text), so no part of the page is read twice.
 * Quoted attribute values may hold `>`; a quote without its closing one within
 * MAX_QUOTED characters is an ordinary character.
 */

export interface HtmlTag {
  /** where the tag starts (`<`) and ends (after `>`) */
  index: number
  end: number
  /** the element name in lower case; null for comments, doctypes and processing instructions */
  name: string | null
  closing: boolean
  /** the text between the name and `>` */
  attrs: string
}

export const MAX_QUOTED = 4000

export class TagScanner {
  private readonly cache = new Map<string, number>()

  constructor(private readonly html: string) {}

  /** The next occurrence of `ch` at or after `from` (callers only ever ask further on). */
  private nextOf(ch: string, from: number): number {
    const cached = this.cache.get(ch)
    if (cached === -1 || (cached !== undefined && cached >= from)) return cached
    const found = this.html.indexOf(ch, from)
    this.cache.set(ch, found)
    return found
  }

  /** The first tag at or after `from`, or null when there is none (the rest is text). */
  next(from: number): HtmlTag | null {
    const html = this.html
    for (let i = html.indexOf('<', from); i !== -1; i = html.indexOf('<', i + 1)) {
      if (html.startsWith('<!--', i)) {
        const close = html.indexOf('-->', i + 4)
        return {
          index: i,
          end: close === -1 ? html.length : close + 3,
          name: null,
          closing: false,
          attrs: '',
        }
      }
      const c = html[i + 1]
      if (c === '!' || c === '?') {
        const gt = this.nextOf('>', i + 2)
        if (gt === -1) return null
        return { index: i, end: gt + 1, name: null, closing: false, attrs: '' }
      }
      const closing = c === '/'
      const nameStart = closing ? i + 2 : i + 1
      let k = nameStart
      if (!isLetter(html.charCodeAt(k))) continue
      while (k < html.length && isNameChar(html.charCodeAt(k))) k++
      const name = html.slice(nameStart, k).toLowerCase()
      const attrsStart = k
      for (;;) {
        const gt = this.nextOf('>', k)
        if (gt === -1) return null
        const q = firstBefore(this.nextOf('"', k), this.nextOf("'", k), gt)
        if (q === -1)
          return { index: i, end: gt + 1, name, closing, attrs: html.slice(attrsStart, gt) }
        const close = this.nextOf(html[q] as string, q + 1)
        k = close === -1 || close - q > MAX_QUOTED ? q + 1 : close + 1
      }
    }
    return null
  }
}

/**
 * Where the raw text of a `<name>` element (script, style, title…) that starts at `from`
 * ends: the index of its end tag and the index after it, or the end of the page.
 */
export function rawTextEnd(
  html: string,
  from: number,
  name: string,
): { stop: number; end: number } {
  const endTag = new RegExp(`</${name}[ \\t\\r\\n\\f]*>`, 'ig')
  endTag.lastIndex = from
  const m = endTag.exec(html)
  return m ? { stop: m.index, end: endTag.lastIndex } : { stop: html.length, end: html.length }
}

function firstBefore(a: number, b: number, limit: number): number {
  const ok = (x: number): boolean => x !== -1 && x < limit
  if (ok(a) && ok(b)) return Math.min(a, b)
  return ok(a) ? a : ok(b) ? b : -1
}

function isLetter(code: number): boolean {
  return (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
}

function isNameChar(code: number): boolean {
  return isLetter(code) || (code >= 48 && code <= 57) || code === 58 || code === 45
}
