/**
 * Renders a model's answer: GitHub-flavored Markdown from an untrusted source (`parse.tsx`),
 * while it streams in, with work per update bounded by what changed:
 *
 * - The text is split into top-level blocks (`blocks.ts`), incrementally: only the last
 *   block (or, for a code block, a table or a list, its last part) is lexed again.
 * - Each block is a memoized component whose props are its block object, which stays the
 *   same once the block is finished: a finished block renders (and is parsed) once. Large
 *   blocks render in parts (`block-parts.ts`), so a growing one re-renders its last part.
 * - Blocks are rendered in groups of `GROUP`; a group whose blocks are all finished keeps
 *   its props, so an update walks the groups and the blocks of the last one, not every
 *   block of the answer; the browser skips a finished group off screen altogether.
 * - Code blocks (`CodeBlock.tsx`) are highlighted in a worker once complete.
 */
import { memo, useMemo, useRef, type JSX, type ReactNode } from 'react'
import {
  PART_SIZES,
  splitBlocks,
  updateBlocks,
  type Block,
  type BlockState,
  type ListInfo,
} from './blocks'
import { BlockCompleteContext, CodeBlock } from './CodeBlock'
import { Md, prepare } from './parse'
import { countLex, countParse, countRender } from './stats'
import './markdown.css'

/** blocks per group */
export const GROUP = 32

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

const withDefs = (text: string, defs: string): string => (defs ? `${text}\n\n${defs}` : text)

/** A table in parts: its head, then each run of rows parsed under the head. */
function TableInParts(props: { parts: readonly string[]; defs: string }): JSX.Element {
  const [head = '', ...runs] = props.parts
  return (
    <div className="md-table-wrap" tabIndex={0}>
      <table className="md-table">
        <Md text={withDefs(head, props.defs)} source={head} mode="thead" />
        {runs.map((rows, i) => (
          <Md key={i} text={withDefs(`${head}\n${rows}`, props.defs)} source={rows} mode="tbody" />
        ))}
      </table>
    </div>
  )
}

/**
 * A tight list in parts: one list, each item parsed on its own; `complete`: its last item
 * will not change any more (until then it is not kept in the parse cache, and parsed in a
 * deferred render when large: `Md`).
 */
function ListInParts(props: {
  parts: readonly string[]
  list: ListInfo
  defs: string
  complete: boolean
}): JSX.Element {
  const { list, parts } = props
  const items = parts.map((item, i) => (
    <Md
      key={i}
      text={withDefs(item, props.defs)}
      source={item}
      mode="item"
      finished={props.complete || i < parts.length - 1}
    />
  ))
  const className = list.task ? 'contains-task-list' : undefined
  return list.ordered ? (
    <ol className={className} start={list.start !== 1 ? list.start : undefined}>
      {items}
    </ol>
  ) : (
    <ul className={className}>{items}</ul>
  )
}

function Footnotes(props: { source: string }): JSX.Element {
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
}

interface BlockProps {
  block: Block
  /** the block will not change any more (the last block of a streaming answer may) */
  complete: boolean
  /** Link reference definitions of the whole text, for blocks that may use them. */
  defs: string
}

/** One top-level block. Memoized on its block object: a finished block renders once. */
const BlockView = memo(function BlockView({ block, complete, defs }: BlockProps): ReactNode {
  countRender(block.source)
  switch (block.type) {
    case 'code':
      // (not parsed as Markdown: counted once, when it is complete)
      if (complete) countParse(block.source)
      return (
        <CodeBlock code={block.code} parts={block.parts} lang={block.lang} complete={complete} />
      )
    case 'def':
      return null // a link reference definition shows nothing; other blocks get it as `defs`
    case 'footnote':
      countParse(block.source)
      return <Footnotes source={block.source} />
    case 'table':
      if (block.parts) return <TableInParts parts={block.parts} defs={defs} />
      break
    case 'list':
      if (block.parts && block.list) {
        return (
          <BlockCompleteContext.Provider value={complete}>
            <ListInParts parts={block.parts} list={block.list} defs={defs} complete={complete} />
          </BlockCompleteContext.Provider>
        )
      }
      break
  }
  return (
    <BlockCompleteContext.Provider value={complete}>
      <Md text={withDefs(block.source, defs)} source={block.source} finished={complete} />
    </BlockCompleteContext.Provider>
  )
})

/**
 * About how tall blocks are (px), before the browser has laid them out: what a finished
 * group off screen takes until it is drawn once (then it keeps its real size). Lines of
 * about 90 characters of text, 26 px each; code lines of 21 px under a 40 px header.
 */
export function guessHeight(blocks: readonly Block[]): number {
  let px = 0
  for (const b of blocks) {
    if (b.type === 'code') {
      let lines = 1
      for (let i = b.code.indexOf('\n'); i >= 0; i = b.code.indexOf('\n', i + 1)) lines++
      px += 70 + lines * 21
    } else if (b.type !== 'def') {
      let lines = 0
      for (const line of b.source.split('\n')) lines += 1 + Math.floor(line.length / 90)
      px += 16 + lines * 26
    }
  }
  return Math.round(px)
}

/**
 * `GROUP` blocks, in an element of their own; `open`: the index in it of the block still
 * streaming (-1: none); `done`: all its blocks are finished (they will not change). A done
 * group (`md-group-done`) is drawn only near the viewport (`content-visibility: auto`,
 * keeping its last size): a long answer's groups above the screen cost no style, layout or
 * paint while its end streams (markdown.css).
 */
const BlockGroup = memo(function BlockGroup(props: {
  blocks: readonly Block[]
  open: number
  done: boolean
  defs: string
}): JSX.Element {
  const { blocks, open, done, defs } = props
  return (
    <div
      className={done ? 'md-group md-group-done' : 'md-group'}
      style={done ? { containIntrinsicBlockSize: `auto ${guessHeight(blocks)}px` } : undefined}
    >
      {blocks.map((b, i) => (
        <BlockView
          key={i}
          block={b}
          complete={i !== open}
          // only blocks with a `]` can use a reference definition: the others keep their
          // props (and are not rendered again) when a definition streams in
          defs={defs && b.type !== 'code' && b.source.includes(']') ? defs : ''}
        />
      ))}
    </div>
  )
})

/**
 * The blocks in groups of `GROUP`, each group the same array as before while its blocks are
 * the same (finished blocks keep their objects), so that its component is not rendered.
 */
function useGroups(blocks: readonly Block[]): (readonly Block[])[] {
  const kept = useRef<(readonly Block[])[]>([])
  const groups: (readonly Block[])[] = []
  for (let from = 0; from < blocks.length; from += GROUP) {
    const to = Math.min(blocks.length, from + GROUP)
    const old = kept.current[groups.length]
    const same =
      old !== undefined &&
      old.length === to - from &&
      old[0] === blocks[from] &&
      old[old.length - 1] === blocks[to - 1]
    groups.push(same ? old : blocks.slice(from, to))
  }
  kept.current = groups
  return groups
}

export interface MarkdownProps {
  text: string
  /** True while the text is still growing: its last block is not complete yet. */
  streaming?: boolean
}

export function Markdown({ text, streaming = false }: MarkdownProps): JSX.Element {
  // The blocks of the previous text. `updateBlocks` only reuses them when the new text
  // starts with their source, so a render React throws away cannot leave it wrong.
  const cache = useRef<BlockState | null>(null)
  // while it streams, an answer's text only grows (the live store adds each piece at its
  // end): the new text is not compared with all of the previous one
  const wasStreaming = useRef(false)
  const state = useMemo(() => {
    const next = updateBlocks(cache.current, text, PART_SIZES, streaming && wasStreaming.current)
    if (next !== cache.current) countLex(next.lexed)
    cache.current = next
    return next
  }, [text, streaming])
  wasStreaming.current = streaming
  const groups = useGroups(state.blocks)
  const last = streaming ? state.blocks.length - 1 : -1
  return (
    <div className="md-root">
      {groups.map((blocks, k) => (
        <BlockGroup
          key={k}
          blocks={blocks}
          open={last >= k * GROUP && last < (k + 1) * GROUP ? last - k * GROUP : -1}
          done={!streaming || (k + 1) * GROUP <= state.finished}
          defs={state.defs}
        />
      ))}
    </div>
  )
}

/**
 * Parses a text's blocks ahead of time (when the main thread is idle, before they are
 * shown), so that showing them later costs no parsing.
 */
export function prepareMarkdown(text: string): void {
  for (const b of splitBlocks(text)) {
    if (b.type === 'code' || b.type === 'def' || b.type === 'footnote') continue
    if (b.type === 'table' && b.parts) {
      const [head = '', ...runs] = b.parts
      prepare(head, 'thead')
      for (const rows of runs) prepare(`${head}\n${rows}`, 'tbody')
    } else if (b.type === 'list' && b.parts) {
      for (const item of b.parts) prepare(item, 'item')
    } else prepare(b.source)
  }
}
