/** Prints the UI benchmark's results like `npm run bench`: figures, targets, PASS/MISS. */
import type { MemoryResult } from './memory'
import type { OpenResult } from './open-session'
import type { ScrollResult } from './scroll'
import { frameStats, percentile, type FrameStats } from './stats'
import type { StreamResult } from './stream'

export const TARGETS = {
  fps: { 1000: 58, 3000: 55 } as Record<number, number>,
  p95FrameMs: 17,
  longTaskMs: 50,
  lastTokenMs: 100,
  openP95Ms: 150,
  listNodes: 3000,
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

export function printStream(r: StreamResult, idleWindow: StreamResult['idle']): void {
  const s = frameStats(r.stream)
  const idle = frameStats(idleWindow ?? r.stream)
  const srv = r.server
  console.log(
    `   ${int(r.rate)} tokens/s for ${srv.seconds} s: ${int(srv.tokens)} tokens, ${kb(srv.chars)} of Markdown in ${srv.writes} writes (longest gap between writes ${srv.maxGapMs} ms)`,
  )
  frames(s, idle, TARGETS.fps[r.rate] ?? TARGETS.fps[1000], TARGETS.p95FrameMs)
  longTasks(s, idle, true)
  line(
    'last token on screen',
    `${n(r.lastTokenMs, 0)} ms`,
    '',
    `≤ ${TARGETS.lastTokenMs} ms`,
    r.lastTokenMs <= TARGETS.lastTokenMs && r.visible,
  )
  if (!r.visible)
    console.log('   (the final token was in the page but not within the visible area)')
  const a = frameStats(r.after)
  console.log(
    `   the ${n(a.seconds, 0)} s after (turn end, stored answer replaces the live one): fps ${n(a.fps)}, frame p95 ${n(a.p95)} ms, max ${n(a.max)} ms, tasks > 50 ms: ${a.longTasks} (max ${n(a.longestTask, 0)} ms)`,
  )
}

export function printOpen(r: OpenResult): void {
  const p50 = percentile(r.times, 0.5)
  const p95 = percentile(r.times, 0.95)
  const max = Math.max(...r.times)
  const nodes = Math.max(...r.nodes)
  console.log(
    `   ${'hash change → last messages painted'.padEnd(36)}p50 ${n(p50, 0)}  p95 ${n(p95, 0)}  max ${n(max, 0)} ms   target p95 ≤ ${TARGETS.openP95Ms} ms  ${verdict(p95 <= TARGETS.openP95Ms && r.notVisible === 0)}`,
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

/** growth beyond the text streamed: at the end it should not be about twice that at mid-stream */
export function memoryVerdict(r: MemoryResult): {
  midExcess: number
  endExcess: number
  ok: boolean
} {
  const midExcess = r.mid.used - r.idle.used - r.midChars
  const endExcess = r.end.used - r.idle.used - r.endChars
  const ok = endExcess <= 1.5 * Math.max(0, midExcess) + 1024 * 1024
  return { midExcess, endExcess, ok }
}

export function printMemory(results: MemoryResult[]): void {
  const cols = (f: (r: MemoryResult) => string): string =>
    results.map((r) => f(r).padStart(22)).join('')
  console.log(`   ${''.padEnd(26)}${cols((r) => `${int(r.rate)} tok/s`)}`)
  console.log(`   ${'idle (session open)'.padEnd(26)}${cols((r) => `${mb(r.idle.used)}`)}`)
  console.log(
    `   ${'after 10 s of streaming'.padEnd(26)}${cols((r) => `${mb(r.mid.used)} (${signedMb(r.mid.used - r.idle.used)})`)}`,
  )
  console.log(
    `   ${'after 20 s (turn ended)'.padEnd(26)}${cols((r) => `${mb(r.end.used)} (${signedMb(r.end.used - r.idle.used)})`)}`,
  )
  console.log(
    `   ${'text streamed 10 s / 20 s'.padEnd(26)}${cols((r) => `${kb(r.midChars)} / ${kb(r.endChars)}`)}`,
  )
  console.log(
    `   ${'growth − text 10 s / 20 s'.padEnd(26)}${cols((r) => {
      const v = memoryVerdict(r)
      return `${signedMb(v.midExcess)} / ${signedMb(v.endExcess)}`
    })}`,
  )
  console.log(
    `   ${'DOM nodes idle / 20 s'.padEnd(26)}${cols((r) => `${int(r.idle.nodes)} / ${int(r.end.nodes)}`)}`,
  )
  console.log(
    `   ${'target: at 20 s ≤ 1.5 × (10 s) + 1 MB'.padEnd(26)}${cols((r) => verdict(memoryVerdict(r).ok))}`,
  )
}
