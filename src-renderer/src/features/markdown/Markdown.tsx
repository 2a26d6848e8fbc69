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
import { memo, useMemo, useRef, type JSX, type ReactNode } from 'react'
import ReactMarkdown, { type Components, type ExtraProps } from 'react-markdown'
import remarkGfm from 'remark-gfm'
import { updateBlocks, type BlockState } from './blocks'
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

function Md(props: { children: string }): JSX.Element {
  return (
    <ReactMarkdown
      remarkPlugins={remarkPlugins}
      components={components}
      urlTransform={keepUrl}
      // raw HTML is not dropped but shown as text (react-markdown turns it into text nodes
      // when there is no rehype-raw): the reader sees what the model wrote
      skipHtml={false}
    >
      {props.children}
    </ReactMarkdown>
  )
}

interface BlockProps {
  source: string
  type: string
  lang: string
  code: string
  /** Link reference definitions of the whole text, for blocks that may use them. */
  defs: string
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
  countParse(props.source)
  switch (props.type) {
    case 'code':
      return <CodeBlock code={props.code} lang={props.lang} />
    case 'def':
      return null // a link reference definition shows nothing; other blocks get it as `defs`
    case 'footnote':
      // Shown where it is written (usually at the end), as "[label] text"; a reference to it
      // in another block stays as written ("[^1]"), as blocks are rendered on their own.
      return (
        <>
          {footnotes(props.source).map((f, i) => (
            <div className="md-footnote" key={i}>
              <span className="md-footnote-label">[{f.label}]</span>
              <div className="md-footnote-text">
                <Md>{f.text}</Md>
              </div>
            </div>
          ))}
        </>
      )
    default:
      return <Md>{props.defs ? `${props.source}\n\n${props.defs}` : props.source}</Md>
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
            // only blocks with a `]` can use a reference definition: the others keep their
            // props (and are not parsed again) when a definition streams in
            defs={defs && b.type !== 'code' && b.source.includes(']') ? defs : ''}
          />
        </BlockCompleteContext.Provider>
      ))}
    </div>
  )
}
