/**
 * Readable text from HTML, without a DOM: drops scripts, styles and navigation-like noise,
 * turns block elements into line breaks (headings marked with `#`, list items with `-`),
 * keeps link text, decodes entities and collapses whitespace (except inside <pre>).
 */
import { rawTextEnd, TagScanner } from './html-tags'

/** elements dropped with everything inside them */
const DROPPED = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'math',
  'canvas',
  'iframe',
  'object',
  'embed',
  'nav',
  'footer',
  'aside',
  'button',
  'select',
  'dialog',
  'menu',
])
/** elements whose content is raw text (not parsed for tags) */
const RAW_TEXT = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'noscript'])
/** elements with no content and no end tag */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'link',
  'meta',
  'source',
  'track',
  'wbr',
])
const BLOCK = new Set([
  'address',
  'article',
  'blockquote',
  'body',
  'caption',
  'center',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'html',
  'legend',
  'li',
  'main',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
  'br',
])

/** break marks: a line break, and a paragraph break (a blank line) */
const LINE = '\uE003'
const PARA = '\uE004'

export interface HtmlText {
  title: string | null
  text: string
}

export function htmlToText(html: string): HtmlText {
  let title: string | null = null
  const out: string[] = []
  const dropStack: string[] = []
  let preDepth = 0
  let last = 0
  const tags = new TagScanner(html)
  for (let m = tags.next(0); m; m = tags.next(last)) {
    const dropping = dropStack.length > 0
    if (!dropping) emitText(out, html.slice(last, m.index), preDepth > 0)
    last = m.end
    const name = m.name
    if (!name) continue // comment, doctype, processing instruction
    const closing = m.closing
    const selfClosing = m.attrs.trimEnd().endsWith('/')
    if (!closing && RAW_TEXT.has(name) && !selfClosing) {
      // skip to the matching end tag; the content is not markup
      const { stop, end } = rawTextEnd(html, last, name)
      const content = html.slice(last, stop)
      last = end
      if (name === 'title' && title === null)
        title = collapse(decodeEntities(content)).trim() || null
      if (!dropping && name === 'textarea') emitText(out, content, true)
      continue
    }
    if (DROPPED.has(name) && !VOID.has(name)) {
      if (!closing && !selfClosing) dropStack.push(name)
      else if (closing && dropStack.includes(name)) while (dropStack.pop() !== name);
      continue
    }
    if (dropping) continue
    if (name === 'pre') preDepth = Math.max(0, preDepth + (closing ? -1 : 1))
    if (closing) {
      if (BLOCK.has(name)) out.push(name === 'p' || /^h[1-6]$/.test(name) ? PARA : LINE)
      else if (name === 'td' || name === 'th') out.push(' ')
      continue
    }
    if (/^h[1-6]$/.test(name)) out.push(`${PARA}${'#'.repeat(Number(name[1]))} `)
    else if (name === 'li') out.push(`${LINE}- `)
    else if (name === 'p' || name === 'blockquote' || name === 'table') out.push(PARA)
    else if (name === 'hr') out.push(`${LINE}---${LINE}`)
    else if (name === 'td' || name === 'th') out.push(' | ')
    else if (name === 'img') {
      const alt = /\balt\s*=\s*("([^"]*)"|'([^']*)')/i.exec(m.attrs.slice(0, 10_000))
      const text = alt ? (alt[2] ?? alt[3] ?? '') : ''
      if (text.trim()) out.push(` ${decodeEntities(text).trim()} `)
    } else if (BLOCK.has(name)) out.push(LINE)
  }
  if (dropStack.length === 0) emitText(out, html.slice(last), preDepth > 0)
  return { title, text: tidy(out.join('')) }
}

function emitText(out: string[], raw: string, pre: boolean): void {
  if (raw === '') return
  const decoded = decodeEntities(raw)
  out.push(pre ? protect(decoded) : collapse(decoded))
}

function collapse(s: string): string {
  // a single space stays as it is (replacing it too costs much on long texts)
  return s.replace(/[\t\r\n\f][ \t\r\n\f]*| [ \t\r\n\f]+/g, ' ')
}

/** Text inside <pre> keeps its line breaks and spaces: they are marked so `tidy` leaves them. */
function protect(s: string): string {
  return s.replace(/\r?\n/g, '\uE000').replace(/ /g, '\uE001').replace(/\t/g, '\uE002')
}

/**
 * Turns break marks into line breaks (a run of them is one break, a blank line if any of
 * them ends a paragraph), trims lines, keeps at most one blank line in a row, and then
 * restores what <pre> marked.
 */
function tidy(s: string): string {
  return s
    .replace(/[ \t]*(?:[\uE003\uE004][ \t]*)+/g, (run) => (run.includes(PARA) ? '\n\n' : '\n'))
    .split('\n')
    .map((line) => line.replace(/\t[ \t]*| [ \t]+/g, ' ').trim())
    .join('\n')
    .replace(/\uE000/g, '\n')
    .replace(/\uE001/g, ' ')
    .replace(/\uE002/g, '\t')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
}

const NAMED: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: ' ',
  copy: '©',
  reg: '®',
  trade: '™',
  hellip: '…',
  mdash: '—',
  ndash: '–',
  lsquo: '‘',
  rsquo: '’',
  ldquo: '“',
  rdquo: '”',
  laquo: '«',
  raquo: '»',
  bull: '•',
  middot: '·',
  euro: '€',
  pound: '£',
  yen: '¥',
  cent: '¢',
  sect: '§',
  para: '¶',
  deg: '°',
  plusmn: '±',
  times: '×',
  divide: '÷',
  frac12: '½',
  frac14: '¼',
  frac34: '¾',
  shy: '',
  zwj: '',
  zwnj: '',
  larr: '←',
  rarr: '→',
  uarr: '↑',
  darr: '↓',
  harr: '↔',
  check: '✓',
  minus: '−',
  le: '≤',
  ge: '≥',
  ne: '≠',
  infin: '∞',
  auml: 'ä',
  ouml: 'ö',
  uuml: 'ü',
  Auml: 'Ä',
  Ouml: 'Ö',
  Uuml: 'Ü',
  szlig: 'ß',
  eacute: 'é',
  egrave: 'è',
  agrave: 'à',
  ccedil: 'ç',
  ntilde: 'ñ',
  oslash: 'ø',
  aring: 'å',
  aelig: 'æ',
  iexcl: '¡',
  iquest: '¿',
  thinsp: ' ',
  ensp: ' ',
  emsp: ' ',
}

export function decodeEntities(s: string): string {
  if (!s.includes('&')) return s
  return s.replace(
    /&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});?/g,
    (all, body: string) => {
      if (body.startsWith('#')) {
        const code =
          body[1] === 'x' || body[1] === 'X'
            ? parseInt(body.slice(2), 16)
            : parseInt(body.slice(1), 10)
        if (
          !Number.isFinite(code) ||
          code <= 0 ||
          code > 0x10ffff ||
          (code >= 0xd800 && code <= 0xdfff)
        ) {
          return '\ufffd'
        }
        return String.fromCodePoint(code)
      }
      return NAMED[body] ?? all
    },
  )
}
