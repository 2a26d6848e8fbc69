/**
 * Renders a model's answer: GitHub-flavored Markdown from an untrusted source, while it
 * streams in, without redoing finished work.
 *
 * - The text is split into top-level blocks (`blocks.ts`); each block is a memoized
 *   component whose props are its text, so a finished block is parsed once. While
 *   streaming, only the last block and the new text are lexed again.
 * - Untrusted: raw HTML shows as text (no rehype-raw), images are never loaded (shown as
 *   their alt text and address), and links go through `links.tsx` (https:/mailto: after a
 *   confirmation, everything else inert).
 * - Code blocks (`CodeBlock.tsx`) are highlighted in a worker once complete.
 */
import { memo, useMemo, useRef, type JSX, type ReactElement, type ReactNode } from 'react'
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { splitBlocks, updateBlocks, type BlockState } from './blocks'
import { BlockCompleteContext, CodeBlock } from './CodeBlock'
import { MarkdownLink } from './links'
import { countLex, countParse } from './stats'
import './markdown.css'

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
    return (
      <span className="md-img" title="Images in answers are not loaded">
        <span aria-hidden="true">🖼 </span>
        {alt || 'image'}
        {address ? ` — ${address}` : ''}
      </span>
    )
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

const remarkPlugins = [remarkGfm]

/**
 * Finished blocks' rendered trees, by their text: a block that is rendered again (a row
 * scrolled back into view, a conversation opened again, a live answer replaced by its
 * stored copy) is not parsed again. Bounded by entries and by characters.
 */
const MAX_ENTRIES = 600
/** about 30 bytes of rendered tree per character: ~5 MB at most */
const MAX_CHARS = 150_000
const MAX_ENTRY_CHARS = 20_000
const rendered = new Map<string, ReactElement>()
let renderedChars = 0

function parse(source: string): ReactElement {
  // react-markdown's synchronous Markdown is a plain function of its options (no hooks)
  return ReactMarkdown({
    children: source,
    remarkPlugins,
    components,
    urlTransform: keepUrl,
    // raw HTML is not dropped but shown as text (react-markdown turns it into text nodes
    // when there is no rehype-raw): the reader sees what the model wrote
    skipHtml: false,
  })
}

function remember(source: string, tree: ReactElement): void {
  if (source.length > MAX_ENTRY_CHARS || rendered.has(source)) return
  rendered.set(source, tree)
  renderedChars += source.length
  for (const [key] of rendered) {
    if (rendered.size <= MAX_ENTRIES && renderedChars <= MAX_CHARS) break
    rendered.delete(key)
    renderedChars -= key.length
  }
}

function cached(source: string): ReactElement | undefined {
  const hit = rendered.get(source)
  if (hit) {
    // most recently used last
    rendered.delete(source)
    rendered.set(source, hit)
  }
  return hit
}

/**
 * A block's Markdown. `text` is what is parsed (the block, with the link definitions it may
 * use); `source` is the block itself (for the parse counter). An unfinished block (the end
 * of a streaming answer) is parsed on each change but kept only here, so that finishing it
 * costs no second parse.
 */
function Md(props: { text: string; source?: string; finished?: boolean }): JSX.Element {
  const { text, finished = true } = props
  const last = useRef<{ text: string; tree: ReactElement } | null>(null)
  if (last.current?.text === text) {
    if (finished) remember(text, last.current.tree)
    return last.current.tree
  }
  let tree = cached(text)
  if (!tree) {
    if (props.source !== undefined) countParse(props.source)
    tree = parse(text)
    if (finished) remember(text, tree)
  }
  last.current = { text, tree }
  return tree
}

/**
 * Parses a text's blocks ahead of time (when the main thread is idle, before they are
 * shown), so that showing them later costs no parsing.
 */
export function prepareMarkdown(text: string): void {
  for (const b of splitBlocks(text)) {
    if (b.type === 'code' || b.type === 'def' || b.type === 'footnote') continue
    if (!rendered.has(b.source)) remember(b.source, parse(b.source))
  }
}

interface BlockProps {
  source: string
  type: string
  lang: string
  code: string
  /** Link reference definitions of the whole text, for blocks that may use them. */
  defs: string
  /** the block will not change any more (its parse may be kept) */
  finished: boolean
}

/** The definitions of a footnote block: `[^label]: text` each, possibly several in a row. */
function footnotes(source: string): { label: string; text: string }[] {
  const items: { label: string; text: string }[] = []
  for (const part of source.split(/\n(?= {0,3}\[\^[^\]\s]+\]:)/)) {
    const m = /^ {0,3}\[\^([^\]\s]+)\]:[ \t]*([\s\S]*)$/.exec(part)
    if (m) items.push({ label: m[1] ?? '', text: m[2] ?? '' })
    else if (items.length > 0) (items[items.length - 1] as { text: string }).text += `\n${part}`
  }
  return items
}

/** One top-level block. Memoized on its text: a finished block renders (parses) once. */
const Block = memo(function Block(props: BlockProps): ReactNode {
  switch (props.type) {
    case 'code':
      countParse(props.source)
      return <CodeBlock code={props.code} lang={props.lang} />
    case 'def':
      return null // a link reference definition shows nothing; other blocks get it as `defs`
    case 'footnote':
      countParse(props.source)
      // Shown where it is written (usually at the end), as "[label] text"; a reference to it
      // in another block stays as written ("[^1]"), as blocks are rendered on their own.
      return (
        <>
          {footnotes(props.source).map((f, i) => (
            <div className="md-footnote" key={i}>
              <span className="md-footnote-label">[{f.label}]</span>
              <div className="md-footnote-text">
                <Md text={f.text} />
              </div>
            </div>
          ))}
        </>
      )
    default:
      return (
        <Md
          text={props.defs ? `${props.source}\n\n${props.defs}` : props.source}
          source={props.source}
          finished={props.finished}
        />
      )
  }
})

export interface MarkdownProps {
  text: string
  /** True while the text is still growing: its last block is not complete yet. */
  streaming?: boolean
}

export function Markdown({ text, streaming = false }: MarkdownProps): JSX.Element {
  // The blocks of the previous text. `updateBlocks` only reuses them when the new text
  // starts with their source, so a render React throws away cannot leave it wrong.
  const cache = useRef<BlockState | null>(null)
  const state = useMemo(() => {
    const next = updateBlocks(cache.current, text)
    if (next !== cache.current) countLex(next.lexed)
    cache.current = next
    return next
  }, [text])
  const { blocks, defs } = state
  return (
    <div className="md-root">
      {blocks.map((b, i) => (
        <BlockCompleteContext.Provider key={i} value={!streaming || i < blocks.length - 1}>
          <Block
            source={b.source}
            type={b.type}
            lang={b.lang}
            code={b.code}
            // (a code block does not depend on it: it keeps its props)
            finished={b.type === 'code' || !streaming || i < blocks.length - 1}
            // only blocks with a `]` can use a reference definition: the others keep their
            // props (and are not parsed again) when a definition streams in
            defs={defs && b.type !== 'code' && b.source.includes(']') ? defs : ''}
          />
        </BlockCompleteContext.Provider>
      ))}
    </div>
  )
}
