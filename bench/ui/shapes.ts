/**
 * The shapes of answer the UI benchmark streams, each named and deterministic (seeded):
 * an endless run of Markdown blocks of one kind, cut into tokens like a model's. The
 * token server (`token-server.ts`) streams a shape's tokens at the planned rate; `reasoning`
 * and `tools` also use its reasoning channel and tool calls.
 */
import { rng, TextMaker } from './text'

export const SHAPES = {
  prose: 'paragraphs, headings and short bullet lists, no code',
  mixed: 'prose with now and then a 10–30-line code block (the first content of this bench)',
  'small-code': 'a sentence, a three-line fenced ts block and a list item, alternating',
  'big-code': 'one 5 000-line ts code block',
  table: 'a 500-row table',
  'nested-lists': 'lists of 60 items nested six deep (bullets, numbers, task items)',
  reasoning: 'reasoning (plain prose) for half the stream, then the answer (the mixed shape)',
  tools: 'prose with a tool call (list_directory, run at once) after every 100 tokens',
} as const

export type ShapeName = keyof typeof SHAPES

export const SHAPE_NAMES = Object.keys(SHAPES) as ShapeName[]

export function isShape(name: string): name is ShapeName {
  return Object.hasOwn(SHAPES, name)
}

/** Tokens of content between two tool calls in the `tools` shape. */
export const TOKENS_PER_TOOL_CALL = 100

/** the share of a `reasoning` stream spent reasoning */
export const REASONING_SHARE = 0.5

interface Block {
  text: string
  /**
   * how the block ends when the stream stops in its middle: null, the rest of it as queued
   * (a short block); a string, the end of the current line and then that string (a long
   * block: a code block's closing fence, '' for a table or a list)
   */
  close: string | null
}

type BlockMaker = (t: TextMaker, n: number) => Block

const short = (text: string): Block => ({ text, close: null })

function prose(t: TextMaker): Block {
  const r = t.int(0, 99)
  if (r < 10) return short(t.list())
  if (r < 15) return short(t.heading())
  return short(t.paragraph())
}

const MAKERS: Record<Exclude<ShapeName, 'reasoning' | 'tools'>, BlockMaker> = {
  prose,
  mixed(t) {
    const r = t.int(0, 99)
    if (r < 8) return { text: t.code(t.chance(0.6) ? 'ts' : 'python'), close: '```' }
    if (r < 14) return short(t.list())
    if (r < 18) return short(t.heading())
    return short(t.paragraph())
  },
  'small-code'(t, n) {
    switch (n % 3) {
      case 0:
        return short(t.sentence())
      case 1:
        return short(t.code('ts', 3))
      default:
        return short(`- ${t.sentence()}`)
    }
  },
  'big-code'(t, n) {
    return n % 2 === 0 ? short(t.paragraph()) : { text: t.code('ts', 5_000), close: '```' }
  },
  table(t, n) {
    return n % 2 === 0 ? short(t.paragraph()) : { text: t.table(500, 4), close: '' }
  },
  'nested-lists'(t, n) {
    return n % 2 === 0 ? short(t.paragraph()) : { text: t.nestedList(60, 6), close: '' }
  },
}

/** what the content channel of a shape streams (reasoning and tools: their answer's shape) */
function contentMaker(shape: ShapeName): BlockMaker {
  if (shape === 'reasoning') return MAKERS.mixed
  if (shape === 'tools') return MAKERS.prose
  return MAKERS[shape]
}

/**
 * An endless answer of one shape cut into tokens: words with their leading space,
 * punctuation and Markdown marks as they come, code line by line in short pieces.
 * `closing()` gives what ends the block under way (so a final token lands in a paragraph).
 */
export class TokenSource {
  private readonly text: TextMaker
  private readonly make: BlockMaker
  private pending: string[] = []
  private block: Block = short('')
  private blocks = 0

  constructor(shape: ShapeName | 'reasoning-text', seed: number) {
    this.text = new TextMaker(rng(seed))
    this.make = shape === 'reasoning-text' ? prose : contentMaker(shape)
  }

  next(): string {
    if (this.pending.length === 0) this.refill()
    return this.pending.shift()!
  }

  closing(): string {
    let rest: string
    if (this.block.close === null || this.pending.length < 200) rest = this.pending.join('')
    else {
      // the rest of the line under way, then the block's end
      const eol = this.pending.indexOf('\n')
      rest = `${this.pending.slice(0, eol + 1).join('')}${this.block.close}`
    }
    this.pending = []
    return `${rest}\n\n`
  }

  private refill(): void {
    this.block = this.make(this.text, this.blocks++)
    this.pending = cut(`${this.block.text}\n\n`)
  }
}

/** cuts text into tokens: a word with its leading space, or runs of ≤ 4 other characters */
function cut(s: string): string[] {
  const out: string[] = []
  const re = /( ?[A-Za-z0-9_]+|\n|[^A-Za-z0-9_\n]{1,4})/g
  for (const m of s.matchAll(re)) out.push(m[0])
  return out
}
