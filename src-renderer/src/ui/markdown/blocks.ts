/**
 * Splits Markdown into its top-level blocks (paragraphs, headings, lists, tables, code…)
 * with `marked`'s block lexer, incrementally: while an answer streams in, the blocks that
 * are finished are kept and only the last block plus the new text is lexed again.
 *
 * Pure: no React, no DOM. `Markdown.tsx` keeps a `BlockState` in a ref and feeds it each
 * new text; every block is then rendered (and parsed by react-markdown) on its own, so a
 * finished block, whose text no longer changes, is never parsed again.
 *
 * Why the finished blocks cannot change: the lexer reads blocks left to right, and a block
 * followed by the start of another one has ended (an open fence runs to the end of the
 * text, so it is always the last block). One exception: a last line that has only begun
 * ("2", "-") may still turn into something that joins the block before it ("2. item" in
 * the list above), so while the last block is one short line, the one before it stays
 * unfinished too (`mayJoinPrevious`). Everything before the unfinished blocks stays as it
 * is as long as the text still starts with it; if it does not (the text was replaced, not
 * extended), everything is lexed afresh. tests/renderer/markdown-blocks.test.ts checks that
 * streaming gives the same blocks as lexing the whole text, for every prefix.
 */
import { Lexer, type Token } from 'marked'

export interface Block {
  /** The block's text exactly as in the source (the raws and the gaps between add up). */
  readonly raw: string
  /** What is rendered: the raw without trailing newlines (they never matter). */
  readonly source: string
  /**
   * marked's token type (`paragraph`, `heading`, `code`, `list`, `table`, `blockquote`,
   * `html`, `hr`, `def`…), `footnote` for a footnote definition (`[^1]: …`), or `markdown`
   * for text the lexer could not split (rendered whole).
   */
  readonly type: string
  /** Code blocks: the first word of the fence's info string ('' for none). */
  readonly lang: string
  /** Code blocks: the code, without the fences. */
  readonly code: string
}

export interface BlockState {
  /** The text these blocks are of (newlines normalized to \n). */
  readonly text: string
  readonly blocks: readonly Block[]
  /** blocks[0 .. finished) are finished; the rest (one block, or two) may still change. */
  readonly finished: number
  /** Where the unfinished rest (its first unfinished block) starts in `text`. */
  readonly restStart: number
  /** text.slice(0, restStart): a new text that does not start with it is lexed afresh. */
  readonly prefix: string
  /** The link reference definitions (`[id]: url`) of all blocks, one per line. */
  readonly defs: string
  /** The definitions among the finished blocks only. */
  readonly finishedDefs: string
  /** How many characters this update lexed (for tests and stats). */
  readonly lexed: number
}

export const EMPTY_STATE: BlockState = {
  text: '',
  blocks: [],
  finished: 0,
  restStart: 0,
  prefix: '',
  defs: '',
  finishedDefs: '',
  lexed: 0,
}

interface Piece {
  offset: number
  block: Block
}

/** A footnote definition; marked lexes one as a `def` or (with spaces in it) a paragraph. */
export const FOOTNOTE_DEF = /^ {0,3}\[\^[^\]\s]+\]:/

function toBlock(token: Token): Block {
  const raw = token.raw
  const source = raw.replace(/\n+$/, '')
  if (token.type === 'code') {
    const lang = (token.lang ?? '').trim().split(/\s+/, 1)[0] ?? ''
    return { raw, source, type: 'code', lang, code: token.text }
  }
  const type =
    (token.type === 'def' || token.type === 'paragraph') && FOOTNOTE_DEF.test(raw)
      ? 'footnote'
      : token.type
  return { raw, source, type, lang: '', code: '' }
}

function wholeBlock(raw: string): Block {
  return { raw, source: raw.replace(/\n+$/, ''), type: 'markdown', lang: '', code: '' }
}

/**
 * The non-blank blocks of `src` with their offsets. Where marked's raw does not match the
 * source (it rewrites a bare list marker `- ` as `-\n`, for one), the rest of the text from
 * there becomes one block, rendered whole: still right, just not split.
 */
function lex(src: string): Piece[] {
  let tokens: Token[]
  try {
    // Options of our own: a `marked.use()` elsewhere in the app must not change this.
    tokens = new Lexer({ gfm: true, breaks: false, pedantic: false, silent: false }).blockTokens(
      src,
      [],
    )
  } catch {
    tokens = []
  }
  const pieces: Piece[] = []
  let pos = 0
  for (const token of tokens) {
    if (!src.startsWith(token.raw, pos)) break
    if (token.type !== 'space') pieces.push({ offset: pos, block: toBlock(token) })
    pos += token.raw.length
  }
  if (pos < src.length && src.slice(pos).trim() !== '') {
    pieces.push({ offset: pos, block: wholeBlock(src.slice(pos)) })
  }
  return pieces
}

const normalize = (text: string): string =>
  text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text

const isLinkDef = (b: Block): boolean => b.type === 'def'

/**
 * Whether the last block could still turn out to belong to the block before it. A line's
 * first few characters decide what it starts: "2" may become "2. item" (joining the list
 * above), "-" may become "--" (a lazy continuation of the item above), "#" may become "#x".
 * So while the last block is one short line, the block before it stays unfinished too.
 */
const mayJoinPrevious = (b: Block): boolean => b.source.length <= 16 && !b.source.includes('\n')

const addDef = (defs: string, b: Block): string => (defs ? `${defs}\n${b.source}` : b.source)

/**
 * The blocks of `input`, reusing `prev`'s finished blocks when `input` still starts with
 * them: only the text from the first unfinished block on is lexed. `prev` null: lex all.
 */
export function updateBlocks(prev: BlockState | null, input: string): BlockState {
  const text = normalize(input)
  if (prev && prev.text === text) return prev
  const base = prev && text.startsWith(prev.prefix) ? prev : EMPTY_STATE
  const start = base.restStart
  // A copy, not a slice: a slice (and the blocks lexed from it) would keep the whole text
  // of this update alive, so every finished block would pin a copy of the answer.
  const rest = (' ' + text.slice(start)).slice(1)
  const blocks = base.blocks.slice(0, base.finished)
  let finished = base.finished
  let finishedDefs = base.finishedDefs
  let restStart = start
  const pieces = lex(rest)
  if (pieces.length > 0) {
    // The last block is unfinished, and so is the one before while the last could join it.
    const last = (pieces[pieces.length - 1] as Piece).block
    const open = pieces.length > 1 && mayJoinPrevious(last) ? 2 : 1
    pieces.forEach((piece, i) => {
      blocks.push(piece.block)
      if (i < pieces.length - open) {
        finished++
        if (isLinkDef(piece.block)) finishedDefs = addDef(finishedDefs, piece.block)
      }
    })
    restStart = start + (pieces[pieces.length - open] as Piece).offset
  }
  let defs = finishedDefs
  for (let i = finished; i < blocks.length; i++) {
    const b = blocks[i] as Block
    if (isLinkDef(b)) defs = addDef(defs, b)
  }
  return {
    text,
    blocks,
    finished,
    restStart,
    prefix: restStart === base.restStart ? base.prefix : text.slice(0, restStart),
    defs,
    finishedDefs,
    lexed: rest.length,
  }
}

/** All blocks of a text, lexed at once. */
export function splitBlocks(text: string): Block[] {
  return [...updateBlocks(null, text).blocks]
}
