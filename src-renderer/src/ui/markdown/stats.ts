/**
 * Counters for tests (and curious developers): how much work rendering Markdown did.
 * `parses` counts parses (of a block, or of a part of a large one); `renders` renders of
 * block components; `lexedChars` the characters given to the block lexer. `reset(true)`
 * also records how often each source was parsed and each block rendered, so that a test
 * can check that a finished block is parsed once and never rendered again.
 */
export const __markdownStats = {
  parses: 0,
  renders: 0,
  lexes: 0,
  lexedChars: 0,
  /** Parses per source; null unless a test asked for it (it would keep every text). */
  bySource: null as Map<string, number> | null,
  /** Renders of a block component per block source; null unless a test asked for it. */
  rendersBySource: null as Map<string, number> | null,
  reset(record = false): void {
    this.parses = 0
    this.renders = 0
    this.lexes = 0
    this.lexedChars = 0
    this.bySource = record ? new Map() : null
    this.rendersBySource = record ? new Map() : null
  },
}

export function countRender(source: string): void {
  __markdownStats.renders++
  const m = __markdownStats.rendersBySource
  if (m) m.set(source, (m.get(source) ?? 0) + 1)
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
