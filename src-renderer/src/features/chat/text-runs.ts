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

/** characters compared at each end of the previous text when a text is said to grow */
const ENDS = 256

/** `text` goes on from `prev`, as far as its length and the two ends of `prev` tell */
function goesOn(prev: string, text: string): boolean {
  if (text.length < prev.length) return false
  const tail = Math.max(0, prev.length - ENDS)
  return (
    text.startsWith(prev.slice(tail), tail) && text.startsWith(prev.slice(0, Math.min(tail, ENDS)))
  )
}

/**
 * `text` in runs, reusing `prev`'s finished runs when `text` starts with them. `grows`: the
 * caller knows that `text` is `prev.text` with more at its end (streamed reasoning only
 * grows), so only the ends of `prev.text` are compared, not all of it.
 */
export function textRuns(
  prev: TextRuns | null,
  text: string,
  size = RUN_CHARS,
  grows = false,
): TextRuns {
  if (prev && prev.text === text) return prev
  const base =
    prev &&
    (grows
      ? goesOn(prev.text, text)
      : text.length >= prev.openStart && text.startsWith(prev.text.slice(0, prev.openStart)))
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

/** The runs of a text that streams in (`live`: it only grows), and its open end. */
export function useTextRuns(text: string, live = false): { runs: readonly string[]; open: string } {
  const state = useRef<TextRuns | null>(null)
  const wasLive = useRef(false)
  const next = textRuns(state.current, text, RUN_CHARS, live && wasLive.current)
  wasLive.current = live
  state.current = next
  return { runs: next.runs, open: text.slice(next.openStart) }
}
