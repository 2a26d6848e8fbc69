/** Percentiles and the summary of a window of frames. */
import type { FrameWindow } from './page/types'

/** nearest-rank percentile of unsorted values (p in 0..1) */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN
  const s = [...values].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.max(0, Math.ceil(p * s.length) - 1))]!
}

export interface FrameStats {
  seconds: number
  frames: number
  fps: number
  p50: number
  p95: number
  p99: number
  max: number
  longTasks: number
  longestTask: number
}

export function frameStats(w: FrameWindow): FrameStats {
  const seconds = (w.end - w.start) / 1000
  return {
    seconds,
    frames: w.deltas.length,
    fps: w.deltas.length / seconds,
    p50: percentile(w.deltas, 0.5),
    p95: percentile(w.deltas, 0.95),
    p99: percentile(w.deltas, 0.99),
    max: Math.max(0, ...w.deltas),
    longTasks: w.longTasks.length,
    longestTask: Math.max(0, ...w.longTasks.map((t) => t.duration)),
  }
}

/** the part of a window between `from` and `to` (performance.now()): its frames and long tasks */
export function slice(w: FrameWindow, from: number, to: number): FrameWindow {
  const deltas: number[] = []
  const times: number[] = []
  w.times.forEach((t, i) => {
    if (t > from && t <= to) {
      deltas.push(w.deltas[i]!)
      times.push(t)
    }
  })
  const longTasks = w.longTasks.filter((l) => l.start >= from && l.start < to)
  return { start: from, end: to, deltas, times, longTasks }
}

/** the first and the second half of a window */
export function halves(w: FrameWindow): [FrameWindow, FrameWindow] {
  const mid = (w.start + w.end) / 2
  return [slice(w, w.start, mid), slice(w, mid, w.end)]
}
