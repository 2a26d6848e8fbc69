/**
 * Counters for tests (and curious developers): how much work rendering Markdown did.
 * `parses` counts block renders (each parses its block's text once); `lexedChars` the
 * characters given to the block lexer. `reset(true)` also records how often each block
 * source was parsed, so a test can check that a finished block is parsed exactly once.
 */
export const __markdownStats = {
  parses: 0,
  lexes: 0,
  lexedChars: 0,
  /** Parses per block source; null unless a test asked for it (it would keep every text). */
  bySource: null as Map<string, number> | null,
  reset(record = false): void {
    this.parses = 0
    this.lexes = 0
    this.lexedChars = 0
    this.bySource = record ? new Map() : null
  },
}

export function countParse(source: string): void {
  __markdownStats.parses++
  const m = __markdownStats.bySource
  if (m) m.set(source, (m.get(source) ?? 0) + 1)
}

export function countLex(chars: number): void {
  __markdownStats.lexes++
  __markdownStats.lexedChars += chars
}
