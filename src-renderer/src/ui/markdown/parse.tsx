/**
 * One piece of Markdown (a block, or a part of one) parsed into React elements with
 * react-markdown, and the trees of finished pieces kept (bounded), so that a piece shown
 * again is not parsed again.
 *
 * - Untrusted: raw HTML shows as text (no rehype-raw), images are never loaded (shown as
 *   their alt text and address), and links go through `links.tsx` (https:/mailto: after a
 *   confirmation, everything else inert).
 * - Modes for the parts of a large block (`block-parts.ts`): a table's head alone, a run
 *   of its rows (the head parsed before them, so that the cells line up as in the whole
 *   table), a list's item alone (its own list around it dropped: the block draws one list).
 */
import { memo, useDeferredValue, useRef, type JSX, type ReactElement, type ReactNode } from 'react'
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { useT } from '../../i18n'
import { CodeBlock } from './CodeBlock'
import { MarkdownLink } from './links'
import { countParse, countRender } from './stats'

type HastNode = NonNullable<ExtraProps['node']>

/** The plain text of a hast node (code of a <pre>, text of a link). */
function textOf(node: HastNode | HastNode['children'][number] | undefined): string {
  if (!node) return ''
  if (node.type === 'text') return node.value
  if ('children' in node) {
    let s = ''
    for (const child of node.children) s += textOf(child as HastNode)
    return s
  }
  return ''
}

function languageOf(node: HastNode | undefined): string {
  const code = node?.children.find(
    (c): c is HastNode => c.type === 'element' && c.tagName === 'code',
  )
  const classes = code?.properties['className']
  const list = Array.isArray(classes) ? classes : []
  for (const c of list) {
    if (typeof c === 'string' && c.startsWith('language-')) return c.slice('language-'.length)
  }
  return ''
}

/**
 * Every URL stays as written: no element of ours puts it into an attribute that the browser
 * would follow, except a confirmed https:/mailto: link (`links.tsx` decides). Keeping it
 * lets an inert link or image show its address.
 */
const keepUrl = (url: string): string => url

/** an image of an answer, named and never loaded */
function ImageStub(props: { address: string; alt: string }): JSX.Element {
  const t = useT()
  return (
    <span className="md-img" title={t('common.imageNotLoaded')}>
      <span aria-hidden="true">🖼 </span>
      {props.alt || t('common.image')}
      {props.address ? ` — ${props.address}` : ''}
    </span>
  )
}

const components: Components = {
  a({ node, href, children }) {
    const props = node?.properties ?? {}
    const footnote =
      props['dataFootnoteBackref'] !== undefined
        ? 'backref'
        : props['dataFootnoteRef'] !== undefined
          ? 'ref'
          : undefined
    return (
      <MarkdownLink href={href} text={textOf(node)} footnote={footnote}>
        {children}
      </MarkdownLink>
    )
  },
  img({ src, alt }) {
    // Never loaded: a remote image would tell its server that (and when) you read this.
    const address = typeof src === 'string' ? src : ''
    return <ImageStub address={address} alt={alt ?? ''} />
  },
  pre({ node }) {
    const code = node?.children.find((c) => c.type === 'element' && c.tagName === 'code')
    return <CodeBlock code={textOf(code as HastNode | undefined)} lang={languageOf(node)} />
  },
  code({ children }) {
    // only inline code gets here: <pre> above renders code blocks whole
    return <code className="md-code-inline">{children}</code>
  },
  table({ children }) {
    return (
      <div className="md-table-wrap" tabIndex={0}>
        <table className="md-table">{children}</table>
      </div>
    )
  },
  input({ type, checked }) {
    // task list items: a checkbox that shows the state and cannot be changed
    return <input type={type} checked={checked} disabled readOnly className="md-task" />
  },
}

const contents = ({ children }: { children?: ReactNode }): JSX.Element => <>{children}</>

/** the list an item was parsed in (the one on the item's first line) is left out */
const onFirstLine = (node: HastNode | undefined): boolean => node?.position?.start.line === 1

/**
 * What a piece is: a whole block, a table's head (its `<thead>`), a table's head and rows
 * (their `<tbody>` only), a list item (its `<li>` only).
 */
export type PieceMode = 'block' | 'thead' | 'tbody' | 'item'

const COMPONENTS: Record<PieceMode, Components> = {
  block: components,
  thead: { ...components, table: contents },
  tbody: { ...components, table: contents, thead: () => null },
  item: {
    ...components,
    ul: ({ node, className, children }) =>
      onFirstLine(node) ? contents({ children }) : <ul className={className}>{children}</ul>,
    ol: ({ node, start, children }) =>
      onFirstLine(node) ? contents({ children }) : <ol start={start}>{children}</ol>,
  },
}

const remarkPlugins = [remarkGfm]

function parse(source: string, mode: PieceMode): ReactElement {
  // react-markdown's synchronous Markdown is a plain function of its options (no hooks)
  return ReactMarkdown({
    children: source,
    remarkPlugins,
    components: COMPONENTS[mode],
    urlTransform: keepUrl,
    // raw HTML is not dropped but shown as text (react-markdown turns it into text nodes
    // when there is no rehype-raw): the reader sees what the model wrote
    skipHtml: false,
  })
}

/**
 * Finished pieces' rendered trees, by their mode and text: a piece that is rendered again (a
 * row scrolled back into view, a conversation opened again, a live answer replaced by its
 * stored copy) is not parsed again. Bounded by entries and by characters.
 */
const MAX_ENTRIES = 600
/** about 30 bytes of rendered tree per character: ~5 MB at most */
const MAX_CHARS = 150_000
const MAX_ENTRY_CHARS = 20_000
const rendered = new Map<string, ReactElement>()
let renderedChars = 0

const keyOf = (mode: PieceMode, text: string): string =>
  mode === 'block' ? text : `${mode}\0${text}`

function remember(key: string, tree: ReactElement): void {
  if (key.length > MAX_ENTRY_CHARS || rendered.has(key)) return
  rendered.set(key, tree)
  renderedChars += key.length
  for (const [k] of rendered) {
    if (rendered.size <= MAX_ENTRIES && renderedChars <= MAX_CHARS) break
    rendered.delete(k)
    renderedChars -= k.length
  }
}

function cached(key: string): ReactElement | undefined {
  const hit = rendered.get(key)
  if (hit) {
    // most recently used last
    rendered.delete(key)
    rendered.set(key, hit)
  }
  return hit
}

/** Parses a piece ahead of time (when nothing else runs), so that showing it costs no parse. */
export function prepare(text: string, mode: PieceMode = 'block'): void {
  const key = keyOf(mode, text)
  if (!rendered.has(key)) remember(key, parse(text, mode))
}

/** an unfinished piece at least this long is parsed in a deferred render */
export const DEFER_CHARS = 1_500

/**
 * A piece of Markdown. `text` is what is parsed (the piece, with the link definitions it
 * may use); `source` is the piece itself (for the parse counter). An unfinished piece (the
 * end of a streaming answer) is parsed on each change but kept only here, so that finishing
 * it costs no second parse.
 */
export const Md = memo(function Md(props: {
  text: string
  mode?: PieceMode
  source?: string
  finished?: boolean
}): JSX.Element {
  const { finished = true, mode = 'block' } = props
  if (props.source !== undefined) countRender(props.source)
  // a large piece that is still growing (a list item with lists in it) is parsed again in a
  // render React may put off and interrupt, with its newest text: the frame shows it as it
  // was, and its parses come as often as the main thread has time for them
  const deferred = useDeferredValue(props.text)
  const text = !finished && props.text.length >= DEFER_CHARS ? deferred : props.text
  const last = useRef<{ text: string; tree: ReactElement } | null>(null)
  const key = keyOf(mode, text)
  if (last.current?.text === key) {
    if (finished) remember(key, last.current.tree)
    return last.current.tree
  }
  let tree = cached(key)
  if (!tree) {
    if (props.source !== undefined) countParse(props.source)
    tree = parse(text, mode)
    if (finished) remember(key, tree)
  }
  last.current = { text: key, tree }
  return tree
})
