/**
 * Text that looks like a model's answers, so that the Markdown renderer does real work:
 * words, some **bold** and `inline code`, paragraphs, bullet lists, headings, fenced
 * TypeScript and Python blocks of 10–30 lines, tables. Deterministic (seeded), shared by the
 * seeder (whole messages) and the token server (the same text cut into tokens).
 */

/** mulberry32: a small deterministic PRNG */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const WORDS = (
  'the a of to and in is that for it with as on be this by are from or an can you not ' +
  'which will one all would there their we more when if about into up so what them some ' +
  'stream render frame token message session answer block layout paint worker query cache ' +
  'window request server model history scroll list node value state event buffer handler ' +
  'quickly usually simply rather because however instead finally carefully directly'
).split(' ')

const IDENTS =
  'items count total result value index offset buffer config options store queue'.split(' ')

export class TextMaker {
  constructor(private readonly random: () => number) {}

  int(min: number, max: number): number {
    return min + Math.floor(this.random() * (max - min + 1))
  }

  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.random() * xs.length)]!
  }

  chance(p: number): boolean {
    return this.random() < p
  }

  /** a sentence with now and then **bold** or `code` */
  sentence(): string {
    const n = this.int(6, 16)
    const words: string[] = []
    for (let i = 0; i < n; i++) {
      const w = this.pick(WORDS)
      if (this.chance(0.05)) words.push(`**${w} ${this.pick(WORDS)}**`)
      else if (this.chance(0.03)) words.push(`\`${this.pick(IDENTS)}\``)
      else words.push(w)
    }
    const s = words.join(' ')
    return `${s.charAt(0).toUpperCase()}${s.slice(1)}.`
  }

  paragraph(): string {
    const n = this.int(2, 5)
    const out: string[] = []
    for (let i = 0; i < n; i++) out.push(this.sentence())
    return out.join(' ')
  }

  list(): string {
    const n = this.int(3, 6)
    const out: string[] = []
    for (let i = 0; i < n; i++) out.push(`- ${this.sentence()}`)
    return out.join('\n')
  }

  heading(): string {
    return `### ${this.sentence().slice(0, -1)}`
  }

  code(lang: 'ts' | 'python', lines = this.int(10, 30)): string {
    const out: string[] = []
    for (let i = 0; i < lines; i++) out.push(lang === 'ts' ? this.tsLine(i) : this.pyLine(i))
    return `\`\`\`${lang}\n${out.join('\n')}\n\`\`\``
  }

  private tsLine(i: number): string {
    const a = this.pick(IDENTS)
    const b = this.pick(IDENTS)
    switch (i % 6) {
      case 0:
        return `export function ${a}Of${i}(${b}: number[]): number {`
      case 1:
        return `  const ${a} = ${b}.filter((x) => x > ${this.int(0, 99)}).length`
      case 2:
        return `  // ${this.sentence()}`
      case 3:
        return `  for (let i = 0; i < ${a}; i++) ${b}.push(i * ${this.int(2, 9)})`
      case 4:
        return `  return ${a} + ${b}.length`
      default:
        return '}'
    }
  }

  private pyLine(i: number): string {
    const a = this.pick(IDENTS)
    const b = this.pick(IDENTS)
    switch (i % 5) {
      case 0:
        return `def ${a}_of_${i}(${b}: list[int]) -> int:`
      case 1:
        return `    ${a} = [x for x in ${b} if x > ${this.int(0, 99)}]`
      case 2:
        return `    # ${this.sentence()}`
      case 3:
        return `    return len(${a}) + ${this.int(1, 9)}`
      default:
        return ''
    }
  }

  /** a table; `rows` and `cols` random (3–8, 3–5) when not given */
  table(rowCount?: number, colCount?: number): string {
    const cols = colCount ?? this.int(3, 5)
    const rows = rowCount ?? this.int(3, 8)
    const line = (cells: string[]): string => `| ${cells.join(' | ')} |`
    const out = [
      line(Array.from({ length: cols }, () => this.pick(IDENTS))),
      line(Array.from({ length: cols }, () => '---')),
    ]
    for (let r = 0; r < rows; r++) {
      out.push(line(Array.from({ length: cols }, () => `${this.pick(WORDS)} ${this.int(1, 999)}`)))
    }
    return out.join('\n')
  }

  /**
   * a list of `items` items nested up to `depth` levels: bullets, numbers and task items
   * by level, each level indented under its parent's text
   */
  nestedList(items: number, depth: number): string {
    const out: string[] = []
    const indents = ['']
    const numbers: number[] = []
    let level = 0
    for (let i = 0; i < items; i++) {
      const kind = level % 3
      numbers[level] = (numbers[level] ?? 0) + 1
      const marker = kind === 1 ? `${numbers[level]}.` : '-'
      const task = kind === 2 ? (this.chance(0.5) ? '[x] ' : '[ ] ') : ''
      out.push(`${indents[level]}${marker} ${task}${this.sentence()}`)
      indents[level + 1] = `${indents[level]}${' '.repeat(marker.length + 1)}`
      if (level + 1 < depth && this.chance(0.6)) {
        level++
        numbers[level] = 0
      } else if (level > 0 && this.chance(0.5)) level = this.int(0, level - 1)
    }
    return out.join('\n')
  }

  /** a user's question: one or two sentences */
  question(): string {
    return this.chance(0.5) ? this.sentence() : `${this.sentence()} ${this.sentence()}`
  }

  /** an assistant answer of `size` blocks, with code blocks and now and then a table */
  answer(size: number, opts: { code: number; table: number }): string {
    const blocks: string[] = [this.paragraph()]
    for (let i = 1; i < size; i++) {
      const r = this.random()
      if (r < opts.code) blocks.push(this.code(this.chance(0.6) ? 'ts' : 'python'))
      else if (r < opts.code + opts.table) blocks.push(this.table())
      else if (r < opts.code + opts.table + 0.1) blocks.push(this.list())
      else if (r < opts.code + opts.table + 0.15) blocks.push(this.heading())
      else blocks.push(this.paragraph())
    }
    return blocks.join('\n\n')
  }
}
