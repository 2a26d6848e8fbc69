/**
 * Splits a file's text into chunks at its structure, each with where it is: Markdown at
 * its headings (a chunk never crosses one, and carries the heading it stands under), then at
 * blank lines (paragraphs; a fenced code block is never cut), code at blank lines (its
 * functions and blocks, which blank lines separate), a PDF at its pages. Blocks are packed
 * up to `TARGET_CHARS`; one longer than `MAX_CHARS` is cut at lines, a longer line at
 * characters.
 */

export interface Chunk {
  text: string
  /** 1-based, inclusive; for a PDF, within its page */
  startLine: number
  endLine: number
  /** a PDF's page (1-based) */
  page: number | null
  heading: string | null
}

export type ChunkStyle = 'markdown' | 'code' | 'prose'

/** a chunk grows to about this many characters before the next block starts another */
export const TARGET_CHARS = 1_200
/** no chunk is longer */
export const MAX_CHARS = 4_000

const MARKDOWN_EXT = /\.(md|markdown|mdx|mdown|mkd)$/i
const CODE_EXT =
  /\.(ts|tsx|js|jsx|mjs|cjs|py|rb|go|rs|java|kt|kts|scala|c|h|cc|cpp|hpp|cs|swift|m|mm|php|lua|sh|bash|zsh|ps1|sql|r|jl|ex|exs|erl|hs|ml|clj|dart|vue|svelte|zig|nim|pl|pm)$/i

/** How a file is split: by its name's ending (the content decided that it is text). */
export function chunkStyle(path: string): ChunkStyle {
  if (MARKDOWN_EXT.test(path)) return 'markdown'
  if (CODE_EXT.test(path)) return 'code'
  return 'prose'
}

/** The chunks of a file's text; `pageStarts`: where each PDF page starts in `text`. */
export function chunkText(
  text: string,
  style: ChunkStyle,
  pageStarts?: readonly number[],
): Chunk[] {
  if (pageStarts && pageStarts.length > 0) {
    const chunks: Chunk[] = []
    pageStarts.forEach((start, i) => {
      const end = pageStarts[i + 1] ?? text.length
      for (const c of chunkLines(text.slice(start, end), 'prose'))
        chunks.push({ ...c, page: i + 1 })
    })
    return chunks
  }
  return chunkLines(text, style)
}

interface Block {
  lines: string[]
  start: number
  heading: string | null
  /** a heading starts it: the chunk before it ends */
  opensSection: boolean
}

const HEADING = /^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$/
const FENCE = /^ {0,3}(```|~~~)/

function chunkLines(text: string, style: ChunkStyle): Chunk[] {
  return pack(blocksOf(text.split(/\r\n|\r|\n/), style))
}

/** Lines into blocks: runs of non-blank lines; in Markdown a heading starts a new section. */
function blocksOf(lines: readonly string[], style: ChunkStyle): Block[] {
  const blocks: Block[] = []
  let current: Block | null = null
  let heading: string | null = null
  let fence: string | null = null
  for (const [i, line] of lines.entries()) {
    if (style === 'markdown') {
      const f = FENCE.exec(line)
      const mark = f?.[1] ?? null
      if (mark !== null) fence = fence === null ? mark : fence === mark ? null : fence
      const h = fence === null && mark === null ? HEADING.exec(line) : null
      if (h) {
        heading = (h[2] ?? '').slice(0, 200)
        current = { lines: [line], start: i + 1, heading, opensSection: true }
        blocks.push(current)
        continue
      }
    }
    if (line.trim() === '' && fence === null) {
      current = null
      continue
    }
    const block: Block = current ?? { lines: [], start: i + 1, heading, opensSection: false }
    if (block !== current) blocks.push(block)
    current = block
    block.lines.push(line)
  }
  return blocks
}

/** Blocks into chunks of about TARGET_CHARS, never across a section's start. */
function pack(blocks: readonly Block[]): Chunk[] {
  const chunks: Chunk[] = []
  let lines: string[] = []
  let start = 0
  let end = 0
  let size = 0
  let heading: string | null = null
  const flush = (): void => {
    const text = lines.join('\n').trim()
    if (text !== '') chunks.push({ text, startLine: start, endLine: end, page: null, heading })
    lines = []
    size = 0
  }
  for (const block of blocks) {
    const blockSize = block.lines.reduce((n, l) => n + l.length + 1, 0)
    if (size > 0 && (block.opensSection || size + blockSize > TARGET_CHARS)) flush()
    if (blockSize > MAX_CHARS) {
      for (const piece of cutBlock(block)) chunks.push(piece)
      continue
    }
    if (size === 0) {
      start = block.start
      heading = block.heading
    } else lines.push('')
    lines.push(...block.lines)
    end = block.start + block.lines.length - 1
    size += blockSize
  }
  flush()
  return chunks
}

/** A block longer than MAX_CHARS, cut at lines (a longer line at characters). */
function cutBlock(block: Block): Chunk[] {
  const out: Chunk[] = []
  let text = ''
  let start = block.start
  const push = (end: number): void => {
    if (text.trim() !== '')
      out.push({
        text: text.trim(),
        startLine: start,
        endLine: end,
        page: null,
        heading: block.heading,
      })
    text = ''
  }
  block.lines.forEach((line, i) => {
    const n = block.start + i
    if (text.length > 0 && text.length + line.length + 1 > TARGET_CHARS) {
      push(n - 1)
      start = n
    }
    if (line.length > MAX_CHARS) {
      for (let at = 0; at < line.length; at += TARGET_CHARS) {
        text = line.slice(at, at + TARGET_CHARS)
        push(n)
      }
      start = n + 1
      return
    }
    text += text === '' ? line : `\n${line}`
  })
  push(block.start + block.lines.length - 1)
  return out
}
