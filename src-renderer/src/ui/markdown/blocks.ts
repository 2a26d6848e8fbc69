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
import {
  carriedBlock,
  extendCarry,
  openCarry,
  PART_SIZES,
  wholeParts,
  type Carry,
  type Extended,
  type ListInfo,
  type PartSizes,
} from './block-parts'

export { PART_SIZES, type ListInfo, type PartSizes } from './block-parts'

export interface Block {
  /** What is rendered: the block's text without trailing newlines (they never matter). */
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
  /**
   * A code block, a table or a tight list in parts (`block-parts.ts`), each rendered on its
   * own: runs of code lines (they add up to `code`), the table's first two lines then runs
   * of rows, the list's items. null for every other block.
   */
  readonly parts: readonly string[] | null
  /** A list in parts: how it starts. */
  readonly list: ListInfo | null
}

export interface BlockState {
  /** The text these blocks are of (newlines normalized to \n). */
  readonly text: string
  readonly blocks: readonly Block[]
  /** blocks[0 .. finished) are finished; the rest (one block, or two) may still change. */
  readonly finished: number
  /**
   * Where the unfinished rest starts in `text`: at its first unfinished block, or inside it
   * when that block goes on in parts (`carry`: what is before is sealed).
   */
  readonly restStart: number
  /** text.slice(0, restStart): a new text that does not start with it is lexed afresh. */
  readonly prefix: string
  /** The first unfinished block, when it is lexed again from `restStart` only. */
  readonly carry: Carry | null
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
  carry: null,
  defs: '',
  finishedDefs: '',
  lexed: 0,
}

interface Piece {
  offset: number
  block: Block
  /** marked's token (null for the text it could not split) */
  token: Token | null
  /** the block continues a carry: its carry for the next text */
  carry?: Carry
}

/** A footnote definition; marked lexes one as a `def` or (with spaces in it) a paragraph. */
export const FOOTNOTE_DEF = /^ {0,3}\[\^[^\]\s]+\]:/

const trimNewlines = (s: string): string => s.replace(/\n+$/, '')

function toBlock(token: Token, sizes: PartSizes): Block {
  const raw = token.raw
  const source = trimNewlines(raw)
  const split = wholeParts(token, source, sizes)
  const parts = split?.parts ?? null
  const list = split?.list ?? null
  if (token.type === 'code') {
    const lang = (token.lang ?? '').trim().split(/\s+/, 1)[0] ?? ''
    return { source, type: 'code', lang, code: token.text, parts, list }
  }
  const type =
    (token.type === 'def' || token.type === 'paragraph') && FOOTNOTE_DEF.test(raw)
      ? 'footnote'
      : token.type
  return { source, type, lang: '', code: '', parts, list }
}

function wholeBlock(raw: string): Block {
  return {
    source: trimNewlines(raw),
    type: 'markdown',
    lang: '',
    code: '',
    parts: null,
    list: null,
  }
}

/** A block continued in parts: its raw is the sealed text and the body lexed now. */
function carriedPiece(carry: Carry, ext: Omit<Extended, 'carry'>, next?: Carry): Piece {
  const block: Block = {
    source: ext.source,
    type: carry.type,
    lang: carry.lang,
    code: ext.code,
    parts: ext.parts,
    list: ext.list,
  }
  return { offset: carry.start, block, token: null, ...(next ? { carry: next } : {}) }
}

/**
 * The non-blank blocks of `src` with their offsets (plus `base`). Where marked's raw does
 * not match the source (it rewrites a bare list marker `- ` as `-\n`, for one), the rest of
 * the text from there becomes one block, rendered whole: still right, just not split.
 */
function lex(src: string, base: number, sizes: PartSizes): Piece[] {
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
    if (token.type !== 'space')
      pieces.push({ offset: base + pos, block: toBlock(token, sizes), token })
    pos += token.raw.length
  }
  if (pos < src.length && src.slice(pos).trim() !== '') {
    pieces.push({ offset: base + pos, block: wholeBlock(src.slice(pos)), token: null })
  }
  return pieces
}

const normalize = (text: string): string =>
  text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text

/** A copy, not a slice: a slice would keep the whole string it was cut from alive. */
const copyOf = (s: string): string => (' ' + s).slice(1)

const isLinkDef = (b: Block): boolean => b.type === 'def'

/**
 * Whether the last block could still turn out to belong to the block before it. A line's
 * first few characters decide what it starts: "2" may become "2. item" (joining the list
 * above), "-" may become "--" (a lazy continuation of the item above), "#" may become "#x".
 * So while the last block is one short line, the block before it stays unfinished too.
 */
const mayJoinPrevious = (b: Block): boolean => b.source.length <= 16 && !b.source.includes('\n')

/** equal blocks: the same type, text and code (their parts come from these) */
const sameBlock = (a: Block, b: Block): boolean =>
  a.type === b.type &&
  a.source.length === b.source.length &&
  a.code.length === b.code.length &&
  a.source === b.source &&
  a.code === b.code

const addDef = (defs: string, b: Block): string => (defs ? `${defs}\n${b.source}` : b.source)

/**
 * The pieces of the rest of the text, from `start`: with a carry, the block it continues
 * (lexed from the carry's context and the rest only) and what follows it.
 */
function lexRest(
  text: string,
  start: number,
  carry: Carry | null,
  sizes: PartSizes,
): { pieces: Piece[]; lexed: number } {
  if (carry) {
    const src = carry.context + text.slice(start)
    const pieces = lex(src, start - carry.context.length, sizes)
    const first = pieces[0]
    const ext =
      first?.offset === start - carry.context.length
        ? extendCarry(carry, first.token ?? undefined, sizes)
        : null
    if (ext === 'ended') {
      return {
        pieces: [carriedPiece(carry, carriedBlock(carry), carry), ...pieces],
        lexed: src.length,
      }
    }
    if (ext)
      return {
        pieces: [carriedPiece(carry, ext, ext.carry), ...pieces.slice(1)],
        lexed: src.length,
      }
    // the rest does not go on as the parts assumed: the block is lexed again from its start
    start = carry.start
  }
  const rest = copyOf(text.slice(start))
  return { pieces: lex(rest, start, sizes), lexed: rest.length }
}

/** The carry of a block lexed now from its start, when it can go on in parts. */
function carryOf(piece: Piece, sizes: PartSizes): Carry | null {
  if (piece.carry) return piece.carry
  const c = piece.token ? openCarry(piece.token, piece.offset) : null
  const ext = c ? extendCarry(c, piece.token ?? undefined, sizes) : null
  return ext && ext !== 'ended' ? ext.carry : null
}

/** characters compared at each end of the previous text when a text is said to grow */
const ENDS = 256

/**
 * Whether `input` goes on from `prev.text`, as far as its length and the two ends of
 * `prev.text` tell: not the whole text, which would be read again on every update.
 */
function goesOn(prev: BlockState, input: string): boolean {
  const n = prev.text.length
  if (input.length < n) return false
  const tail = Math.max(0, n - ENDS)
  return (
    input.startsWith(prev.text.slice(tail), tail) &&
    input.startsWith(prev.text.slice(0, Math.min(tail, ENDS)))
  )
}

/**
 * The blocks of `input`, reusing `prev`'s finished blocks when `input` still starts with
 * them: only the text from the first unfinished block on is lexed (from inside it, when it
 * goes on in parts). `prev` null: lex all. `sizes`: the parts' sizes (tests make them small).
 * `grows`: the caller knows that `input` is `prev.text` with more at its end (a streamed
 * answer only grows), so only the ends of `prev.text` are compared, not all of it.
 */
export function updateBlocks(
  prev: BlockState | null,
  input: string,
  sizes: PartSizes = PART_SIZES,
  grows = false,
): BlockState {
  if (prev && prev.text === input) return prev
  const base =
    prev && (grows ? goesOn(prev, input) : input.startsWith(prev.prefix)) ? prev : EMPTY_STATE
  // the prefix has no \r (it is the normalized text of before): only the rest can
  const tail = input.slice(base.restStart)
  const normalized = normalize(tail)
  const text = normalized === tail ? input : base.prefix + normalized
  const blocks = base.blocks.slice(0, base.finished)
  let finished = base.finished
  let finishedDefs = base.finishedDefs
  let restStart = base.restStart
  let carry: Carry | null = null
  const { pieces, lexed } = lexRest(text, base.restStart, base.carry, sizes)
  if (pieces.length > 0) {
    // The last block is unfinished, and so is the one before while the last could join it.
    const last = (pieces[pieces.length - 1] as Piece).block
    const open = pieces.length > 1 && mayJoinPrevious(last) ? 2 : 1
    pieces.forEach((piece, i) => {
      // a block lexed again as it was keeps its object (and its component is not rendered)
      const before = base.blocks[blocks.length]
      blocks.push(before && sameBlock(before, piece.block) ? before : piece.block)
      if (i < pieces.length - open) {
        finished++
        if (isLinkDef(piece.block)) finishedDefs = addDef(finishedDefs, piece.block)
      }
    })
    const firstOpen = pieces[pieces.length - open] as Piece
    carry = carryOf(firstOpen, sizes)
    restStart = carry ? carry.restStart : firstOpen.offset
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
    prefix:
      restStart === base.restStart && base !== EMPTY_STATE ? base.prefix : text.slice(0, restStart),
    carry,
    defs,
    finishedDefs,
    lexed,
  }
}

/** All blocks of a text, lexed at once. */
export function splitBlocks(text: string, sizes: PartSizes = PART_SIZES): Block[] {
  return [...updateBlocks(null, text, sizes).blocks]
}
