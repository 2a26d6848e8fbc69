/** Prints the UI benchmark's results like `npm run bench`: figures, targets, PASS/MISS. */
import type { HeapPoint, MemoryResult } from './memory'
import type { OpenResult } from './open-session'
import type { FrameWindow } from './page/types'
import type { ScrollResult } from './scroll'
import { frameStats, halves, percentile, type FrameStats } from './stats'
import type { StreamResult } from './stream'
import { traceLine } from './trace'

export const TARGETS = {
  fps: { 1000: 58, 3000: 55 } as Record<number, number>,
  p95FrameMs: 20,
  longTaskMs: 50,
  lastTokenMs: 100,
  openP95Ms: 150,
  listNodes: 3000,
  firstPaintMs: 500,
}

export function verdict(ok: boolean): string {
  return ok ? 'PASS' : 'MISS'
}

const n = (x: number, digits = 1): string => (Number.isFinite(x) ? x.toFixed(digits) : '–')
const int = (x: number): string => Math.round(x).toLocaleString('en-US').replace(/,/g, ' ')
const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(2)} MB`
const kb = (chars: number): string => `${(chars / 1024).toFixed(0)} KB`
const signedMb = (bytes: number): string => `${bytes >= 0 ? '+' : '−'}${mb(Math.abs(bytes))}`

function line(label: string, measured: string, reference: string, target = '', ok?: boolean): void {
  const tail = target ? `   ${target.padEnd(18)}${ok === undefined ? '' : verdict(ok)}` : ''
  console.log(
    `   ${label.padEnd(22)}${measured.padStart(14)}${reference.padStart(14)}${tail}`.trimEnd(),
  )
}

/** frame figures of a measured window next to the idle page's */
function frames(m: FrameStats, idle: FrameStats, fpsTarget?: number, p95Target?: number): void {
  line('', 'measured', 'idle')
  line(
    'fps',
    n(m.fps),
    n(idle.fps),
    fpsTarget ? `≥ ${fpsTarget}` : '',
    fpsTarget ? m.fps >= fpsTarget : undefined,
  )
  line('frame p50 ms', n(m.p50), n(idle.p50))
  line(
    'frame p95 ms',
    n(m.p95),
    n(idle.p95),
    p95Target ? `≤ ${p95Target}` : '',
    p95Target ? m.p95 <= p95Target : undefined,
  )
  line('frame p99 ms', n(m.p99), n(idle.p99))
  line('frame max ms', n(m.max), n(idle.max))
  line('frames / seconds', `${m.frames} / ${n(m.seconds)}`, `${idle.frames} / ${n(idle.seconds)}`)
}

function longTasks(m: FrameStats, idle: FrameStats, target: boolean): void {
  const fmt = (s: FrameStats): string => `${s.longTasks} (max ${n(s.longestTask, 0)})`
  line(
    'tasks > 50 ms (max ms)',
    fmt(m),
    fmt(idle),
    target ? 'none' : '',
    target ? m.longTasks === 0 : undefined,
  )
}

/** the longest tasks of a window, with when they started */
function taskList(w: FrameWindow, max = 5): string {
  return [...w.longTasks]
    .sort((a, b) => b.duration - a.duration)
    .slice(0, max)
    .map((t) => {
      const at = (t.start - w.start) / 1000
      return `${n(t.duration, 0)} ms at ${at < 0 ? '−' : '+'}${n(Math.abs(at))} s`
    })
    .join(', ')
}

/** the figures of a stream the targets are about */
export interface StreamFigures {
  fps: [number, number]
  p95: number
  longestTask: number
  tail: number | null
}

export function streamFigures(r: StreamResult): StreamFigures {
  const [a, b] = halves(r.stream).map(frameStats) as [FrameStats, FrameStats]
  return {
    fps: [a.fps, b.fps],
    p95: frameStats(r.stream).p95,
    longestTask: frameStats(r.stream).longestTask,
    tail: r.lastTokenMs,
  }
}

/** the targets a stream missed, in words ('' when it met them all) */
export function streamMisses(r: StreamResult): string {
  const f = streamFigures(r)
  const fps = TARGETS.fps[r.rate] ?? TARGETS.fps[1000]!
  const misses: string[] = []
  if (f.fps[0] < fps) misses.push('fps 1st')
  if (f.fps[1] < fps) misses.push('fps 2nd')
  if (f.p95 > TARGETS.p95FrameMs) misses.push('p95')
  if (f.longestTask > TARGETS.longTaskMs) misses.push('task')
  if (f.tail === null || f.tail > TARGETS.lastTokenMs) misses.push('tail')
  return misses.join(', ')
}

const COLUMNS = [
  ['shape', 14],
  ['tok/s', 7],
  ['fps 1st', 9],
  ['fps 2nd', 9],
  ['p95 ms', 8],
  ['task ms', 9],
  ['tail ms', 9],
  ['cpu %', 7],
] as const

function row(cells: string[], verdictText: string): void {
  const out = cells.map((c, i) => (i === 0 ? c.padEnd(COLUMNS[i]![1]) : c.padStart(COLUMNS[i]![1])))
  console.log(`   ${out.join('')}   ${verdictText}`.trimEnd())
}

/** the targets, and the idle page's figures, above the table of streams */
export function printStreamHeader(idle: FrameStats, idleCpuMs: number): void {
  console.log(
    `   targets: fps ≥ ${TARGETS.fps[1000]} at 1 000 tok/s and ≥ ${TARGETS.fps[3000]} at 3 000 in each half of the stream, frame p95 ≤ ${TARGETS.p95FrameMs} ms, no task over ${TARGETS.longTaskMs} ms, the last token on screen ≤ ${TARGETS.lastTokenMs} ms after it was written`,
  )
  console.log(
    `   cpu %: the renderer's main thread's CPU time over the stream (what the machine's load does not inflate)`,
  )
  console.log(
    `   the idle page (the session open, nothing streaming): fps ${n(idle.fps)}, frame p95 ${n(idle.p95)} ms, tasks > 50 ms: ${idle.longTasks}${idle.longTasks ? ` (max ${n(idle.longestTask, 0)} ms)` : ''}, cpu ${n((idleCpuMs / (idle.seconds * 1000)) * 100, 0)} %`,
  )
  row(
    COLUMNS.map(([name]) => name),
    '',
  )
}

/** one stream: its row of figures, then a line of what else happened */
export function printStream(r: StreamResult): void {
  const f = streamFigures(r)
  const misses = streamMisses(r)
  row(
    [
      r.shape,
      int(r.rate),
      n(f.fps[0]),
      n(f.fps[1]),
      n(f.p95),
      f.longestTask > 0 ? n(f.longestTask, 0) : '–',
      f.tail === null ? 'never' : n(f.tail, 0),
      n(((r.times['cpu'] ?? NaN) / (r.stream.end - r.stream.start)) * 100, 0),
    ],
    misses ? `MISS (${misses})` : 'PASS',
  )
  const srv = r.server
  const notes = [
    `${int(srv.tokens)} tokens, ${kb(srv.chars)}${srv.reasoningChars ? ` + ${kb(srv.reasoningChars)} reasoning` : ''}`,
  ]
  if (srv.toolCalls > 0) notes.push(`${srv.toolCalls} tool calls in ${srv.requests} model calls`)
  notes.push(`longest gap between writes ${srv.maxGapMs} ms`)
  const fl = r.follow
  if (fl.presses > 0) notes.push(`"Jump to latest" pressed ${fl.presses} times`)
  if (r.lastTokenMs === null || r.lastTokenMs - r.lastTokenInDomMs > 1) {
    notes.push(`last token in the DOM after ${n(r.lastTokenInDomMs, 0)} ms`)
  }
  const t = r.times
  notes.push(
    `main thread: script ${n(t['script'] ?? NaN, 0)} ms, style ${n(t['style'] ?? NaN, 0)} ms, layout ${n(t['layout'] ?? NaN, 0)} ms of ${n(t['tasks'] ?? NaN, 0)} ms in tasks`,
  )
  console.log(`      ${notes.join('; ')}`)
  if (r.trace) console.log(`      ${traceLine(r.trace, r.stream.times.length)}`)
  const s = frameStats(r.stream)
  if (s.longTasks > 0) console.log(`      tasks > 50 ms: ${s.longTasks} (${taskList(r.stream)})`)
  const a = frameStats(r.after)
  if (a.longTasks > 0 || a.p95 > TARGETS.p95FrameMs) {
    console.log(
      `      the ${n(a.seconds, 0)} s after (turn end): fps ${n(a.fps)}, frame p95 ${n(a.p95)} ms, tasks > 50 ms: ${a.longTasks}${a.longTasks ? ` (${taskList(r.after)})` : ''}`,
    )
  }
}

export function printOpen(r: OpenResult): void {
  const p50 = percentile(r.times, 0.5)
  const p95 = percentile(r.times, 0.95)
  const max = Math.max(...r.times)
  const nodes = Math.max(...r.nodes)
  console.log(
    `   ${'click → last messages painted'.padEnd(36)}p50 ${n(p50, 0)}  p95 ${n(p95, 0)}  max ${n(max, 0)} ms   target p95 ≤ ${TARGETS.openP95Ms} ms  ${verdict(p95 <= TARGETS.openP95Ms && r.notVisible === 0)}`,
  )
  if (r.notVisible > 0)
    console.log(`   (${r.notVisible} opens did not show the last message within the visible area)`)
  console.log(
    `   ${'DOM nodes in the list after opening'.padEnd(36)}max ${int(nodes)} (median ${int(percentile(r.nodes, 0.5))})   target ≤ ${int(TARGETS.listNodes)}  ${verdict(nodes <= TARGETS.listNodes)}`,
  )
  const tasks = r.longestTask.filter((t) => t > 0)
  console.log(
    `   ${'tasks > 50 ms during an open'.padEnd(36)}${tasks.length} of ${r.times.length} opens had one; longest ${n(Math.max(0, ...r.longestTask), 0)} ms (p50 of those ${n(percentile(tasks, 0.5), 0)} ms)`,
  )
}

export function printScroll(r: ScrollResult): void {
  const s = frameStats(r.scroll)
  const idle = frameStats(r.idle)
  console.log(
    `   scrolled up at ${int(r.pxPerSecond)} px/s: ${int(r.rowsUp)} rows above the last one rendered on the way`,
  )
  frames(s, idle)
  longTasks(s, idle, false)
  line(
    'DOM nodes in the list',
    `max ${int(r.maxNodes)}`,
    `${int(r.nodesAtOpen)}`,
    `≤ ${int(TARGETS.listNodes)}`,
    r.maxNodes <= TARGETS.listNodes,
  )
}

/** heap growth since idle beyond the text streamed (1 byte a character: the text is ASCII) */
const excess = (r: MemoryResult, p: HeapPoint): number => p.used - r.idle.used - p.chars

/** heap growth per character streamed, beyond the text itself */
const perChar = (r: MemoryResult, p: HeapPoint): number => Math.max(0, excess(r, p)) / p.chars

/**
 * Two checks. While streaming, the cost of each character on screen must not rise as the
 * answer grows (a leak makes the later sample cost more per character: ≤ 1.25× passes).
 * After leaving the chat, the page must hold no more than it did with the chat open, plus
 * the stored text of the new answer, the bounded parse cache and 1 MB of slack.
 */
export function streamMemoryOk(r: MemoryResult): boolean {
  return perChar(r, r.late) <= 1.25 * perChar(r, r.mid)
}

/**
 * The window keeps the rendered trees of recently shown Markdown (150 000 characters at
 * most, about 5 MB), so a row shown again is not parsed again: that much may stay.
 */
export const PARSE_CACHE_BYTES = 5 * 1024 * 1024

export function leftMemoryOk(r: MemoryResult): boolean {
  return r.left.used - r.idle.used - r.end.chars <= PARSE_CACHE_BYTES + 1024 * 1024
}

export function memoryOk(r: MemoryResult): boolean {
  return streamMemoryOk(r) && leftMemoryOk(r)
}

export function printMemory(results: MemoryResult[]): void {
  const row = (label: string, f: (r: MemoryResult) => string): void =>
    console.log(`   ${label.padEnd(30)}${results.map((r) => f(r).padStart(26)).join('')}`)
  const point = (r: MemoryResult, p: HeapPoint): string =>
    `${mb(p.used)} (${signedMb(p.used - r.idle.used)})`
  const m = results[0]
  if (!m) return
  row('', (r) => `${r.shape}, ${int(r.rate)} tok/s`)
  row('idle (session open)', (r) => mb(r.idle.used))
  row(`streaming, at ${m.mid.at} s`, (r) => point(r, r.mid))
  row(`streaming, at ${m.late.at} s`, (r) => point(r, r.late))
  row(`turn ended (${m.end.at} s streamed)`, (r) => point(r, r.end))
  row(`text streamed ${m.mid.at} / ${m.late.at} / ${m.end.at} s`, (r) =>
    [r.mid, r.late, r.end].map((p) => kb(p.chars)).join(' / '),
  )
  row(`growth − text at ${m.mid.at} s`, (r) => signedMb(excess(r, r.mid)))
  row(`growth − text at ${m.late.at} s`, (r) => signedMb(excess(r, r.late)))
  row('growth − text, turn ended', (r) => signedMb(excess(r, r.end)))
  row('DOM nodes idle / turn ended', (r) => `${int(r.idle.nodes)} / ${int(r.end.nodes)}`)
  row(
    `bytes per character ${m.mid.at} / ${m.late.at} s`,
    (r) => `${int(perChar(r, r.mid))} / ${int(perChar(r, r.late))}`,
  )
  row(`target: at ${m.late.at} s ≤ 1.25 × at ${m.mid.at} s`, (r) => verdict(streamMemoryOk(r)))
  row('chat left (new chat)', (r) => `${mb(r.left.used)} (${signedMb(r.left.used - r.idle.used)})`)
  row('target: ≤ idle + text + cache + 1 MB', (r) => verdict(leftMemoryOk(r)))
  row('list follows the stream alone', (r) =>
    r.follow.firstShownAfter === null
      ? 'yes'
      : `no, lost at ${n(r.follow.firstShownAfter / 1000)} s`,
  )
}
