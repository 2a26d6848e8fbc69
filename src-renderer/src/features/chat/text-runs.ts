/**
 * A long plain text shown in runs: cut at a line break once a run is `RUN_CHARS` long, each
 * run drawn as its own block (so the browser lays out again only the run that grows), the
 * line break at each cut left out (the block's end breaks the line). Incremental: a text
 * that grows at its end is cut again only from its last run.
 */
import { useRef } from 'react'

export const RUN_CHARS = 2_000

export interface TextRuns {
  text: string
  /** the finished runs: they no longer change */
  runs: readonly string[]
  /** where the last (open) run starts in `text` */
  openStart: number
}

const EMPTY: TextRuns = { text: '', runs: [], openStart: 0 }

/** `text` in runs, reusing `prev`'s finished runs when `text` starts with them. */
export function textRuns(prev: TextRuns | null, text: string, size = RUN_CHARS): TextRuns {
  if (prev && prev.text === text) return prev
  const base =
    prev && text.length >= prev.openStart && text.startsWith(prev.text.slice(0, prev.openStart))
      ? prev
      : EMPTY
  const runs = [...base.runs]
  let start = base.openStart
  for (;;) {
    const cut = text.indexOf('\n', start + size)
    if (cut < 0) break
    // a copy: a slice would keep this whole text alive (and each run a longer one)
    runs.push((' ' + text.slice(start, cut)).slice(1))
    start = cut + 1
  }
  return { text, runs, openStart: start }
}

/** The runs of a text that streams in, and its open end. */
export function useTextRuns(text: string): { runs: readonly string[]; open: string } {
  const state = useRef<TextRuns | null>(null)
  const next = textRuns(state.current, text)
  state.current = next
  return { runs: next.runs, open: text.slice(next.openStart) }
}
