/**
 * Readable text from HTML for fetch_url, through html-to-text (htmlparser2 underneath: one
 * pass, no backtracking, forgiving of broken markup). Scripts, styles and navigation-like
 * noise are dropped; headings are marked with `#`, list items with `-`; links keep their
 * address (`text [https://…]`, resolved against the page's URL); entities are decoded;
 * whitespace is collapsed except inside <pre>. The caller caps the length of the result.
 */
import { compile, type FormatCallback } from 'html-to-text'

/** elements dropped with everything inside them */
const DROPPED = [
  'head',
  'title',
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
]

/** elements html-to-text would run into the text around them: each on lines of its own */
const BLOCKS = [
  'address',
  'caption',
  'center',
  'dd',
  'details',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'legend',
  'summary',
]

/** Elements nested deeper than this are left out (html-to-text walks the tree recursively). */
export const MAX_DEPTH = 200
/** How far into the document the <title> is looked for. */
const TITLE_WINDOW = 100_000

interface Metadata {
  baseUrl: string | null
}

/** `# Heading`, `## Heading`, … on a block of its own. */
const heading: FormatCallback = (elem, walk, builder) => {
  builder.openBlock({ leadingLineBreaks: 2 })
  builder.addInline(`${'#'.repeat(Number(elem.name.slice(1)) || 1)} `, { noWordTransform: true })
  walk(elem.children, builder)
  builder.closeBlock({ trailingLineBreaks: 2 })
}

/** An image is its alt text (its address, often a long data: URL, is left out). */
const imageAlt: FormatCallback = (elem, _walk, builder) => {
  const alt = elem.attribs?.['alt']?.trim()
  if (alt) builder.addInline(alt)
}

/** A link's address, absolute; none for script links (the text alone is kept). */
function rewriteHref(href: string, metadata: Metadata | undefined): string {
  const trimmed = href.trim()
  if (/^(javascript|data|vbscript):/i.test(trimmed)) return ''
  // a mail address (html-to-text takes `mailto:` off first) is not a path
  if (/^[^/:?#@]+@[^/?#]+$/.test(trimmed)) return trimmed
  if (!metadata?.baseUrl) return trimmed
  return URL.parse(trimmed, metadata.baseUrl)?.href ?? trimmed
}

const toText = compile<Metadata>({
  wordwrap: false,
  // the fetch is already capped in bytes; the text is cut by the caller
  limits: { maxInputLength: Number.MAX_SAFE_INTEGER, maxDepth: MAX_DEPTH, ellipsis: '…' },
  baseElements: { selectors: ['body'], returnDomByDefault: true },
  formatters: { cairnHeading: heading, cairnImage: imageAlt },
  selectors: [
    ...DROPPED.map((selector) => ({ selector, format: 'skip' })),
    ...BLOCKS.map((selector) => ({ selector, format: 'block' })),
    ...['h1', 'h2', 'h3', 'h4', 'h5', 'h6'].map((selector) => ({
      selector,
      format: 'cairnHeading',
    })),
    { selector: 'img', format: 'cairnImage' },
    {
      selector: 'a',
      options: {
        hideLinkHrefIfSameAsText: true,
        noAnchorUrl: true,
        pathRewrite: rewriteHref,
      },
    },
    { selector: 'ul', options: { itemPrefix: '- ' } },
    { selector: 'table', format: 'dataTable', options: { uppercaseHeaderCells: false } },
  ],
})

export interface HtmlText {
  title: string | null
  text: string
}

/** `baseUrl`: the page's address, against which relative links are resolved. */
export function htmlToText(html: string, baseUrl: string | null = null): HtmlText {
  return { title: findTitle(html), text: plainSpaces(toText(html, { baseUrl })).trim() }
}

/** no-break spaces (`&nbsp;`) read as spaces */
function plainSpaces(text: string): string {
  return text.replace(/\u00a0/g, ' ')
}

/** The first <title>'s text, found with plain searches (linear on any input). */
function findTitle(html: string): string | null {
  const head = html.slice(0, TITLE_WINDOW)
  const lower = head.toLowerCase()
  let at = lower.indexOf('<title')
  while (at !== -1 && /[a-z0-9-]/.test(lower[at + 6] ?? '')) at = lower.indexOf('<title', at + 6)
  if (at === -1) return null
  const open = lower.indexOf('>', at)
  if (open === -1) return null
  const close = lower.indexOf('</title', open)
  const raw = head.slice(open + 1, close === -1 ? undefined : close)
  const title = toText(`<p>${raw.replace(/</g, '&lt;')}</p>`, { baseUrl: null })
  return title.replace(/\s+/g, ' ').trim() || null
}
