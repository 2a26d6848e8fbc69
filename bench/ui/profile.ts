/**
 * `--profile`: a CDP CPU profile of the page over a measured window, summed into time per
 * function (name, script, line), over the whole window and over its longest busy stretch
 * (the longest task), so that a missed target says where the time went. With the minified
 * build the names are short: build the renderer unminified and pass `--out` to read them.
 */
import type { CDPSession } from 'playwright-core'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
  children?: number[]
}

interface CpuProfile {
  nodes: ProfileNode[]
  samples?: number[]
  timeDeltas?: number[]
}

export interface HotFunction {
  name: string
  where: string
  /** time on top of the stack */
  selfMs: number
  /** time anywhere on the stack */
  totalMs: number
}

export interface ProfileSummary {
  busyMs: number
  /** the renderer's own time over the window (CDP Performance metrics): ms per kind of work */
  metrics: Record<string, number>
  hot: HotFunction[]
  /** the longest runs of samples without idle time (the longest tasks), and their hottest functions */
  longest: { ms: number; hot: HotFunction[] }[]
}

/** '(program)' is the browser's own work on the main thread (style, layout, paint): busy */
const IDLE = new Set(['(idle)'])

/** the cumulative durations Performance.getMetrics gives (seconds), by our name */
const METRICS: Record<string, string> = {
  ThreadTime: 'cpu',
  ProcessTime: 'process cpu',
  ScriptDuration: 'script',
  RecalcStyleDuration: 'style',
  LayoutDuration: 'layout',
  TaskDuration: 'tasks',
}

/**
 * The renderer's main thread so far (ms): `cpu` its CPU time (unlike the others, not
 * inflated when other processes take the CPU), and the time its tasks, scripts, style and
 * layout took.
 */
export async function rendererTimes(cdp: CDPSession): Promise<Record<string, number>> {
  await cdp.send('Performance.enable')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const out: Record<string, number> = {}
  for (const m of metrics) if (m.name in METRICS) out[METRICS[m.name]!] = m.value * 1000
  return out
}

/** `after` − `before`, per kind */
export function timesBetween(
  before: Record<string, number>,
  after: Record<string, number>,
): Record<string, number> {
  const out: Record<string, number> = {}
  for (const [k, v] of Object.entries(after)) out[k] = v - (before[k] ?? 0)
  return out
}

const metricsAtStart = new WeakMap<CDPSession, Record<string, number>>()

export async function startProfile(cdp: CDPSession): Promise<void> {
  metricsAtStart.set(cdp, await rendererTimes(cdp))
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 })
  await cdp.send('Profiler.start')
}

function label(f: ProfileNode['callFrame']): { key: string; name: string; where: string } {
  const file = f.url.split('/').pop() || f.url
  return {
    key: `${f.functionName}|${f.url}|${f.lineNumber}|${f.columnNumber}`,
    name: f.functionName || '(anonymous)',
    where: file ? `${file}:${f.lineNumber + 1}` : '',
  }
}

/** time per function over samples [from, to) */
function sum(
  profile: CpuProfile,
  parents: Map<number, number>,
  from: number,
  to: number,
  top: number,
): HotFunction[] {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]))
  const acc = new Map<string, HotFunction>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  for (let i = from; i < to; i++) {
    const ms = (deltas[i + 1] ?? 0) / 1000
    const seen = new Set<string>()
    for (
      let id: number | undefined = samples[i], self = true;
      id !== undefined;
      id = parents.get(id), self = false
    ) {
      const node = byNode.get(id)
      if (!node) break
      const l = label(node.callFrame)
      if (IDLE.has(l.name) || l.name === '(root)') continue
      const e = acc.get(l.key) ?? { name: l.name, where: l.where, selfMs: 0, totalMs: 0 }
      if (self) e.selfMs += ms
      if (!seen.has(l.key)) e.totalMs += ms
      seen.add(l.key)
      acc.set(l.key, e)
    }
  }
  return [...acc.values()].sort((a, b) => b.selfMs - a.selfMs).slice(0, top)
}

export async function stopProfile(cdp: CDPSession, top = 20): Promise<ProfileSummary> {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile }
  await cdp.send('Profiler.disable')
  const metrics = timesBetween(metricsAtStart.get(cdp) ?? {}, await rendererTimes(cdp))
  const parents = new Map<number, number>()
  for (const n of profile.nodes) for (const c of n.children ?? []) parents.set(c, n.id)
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]))
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  const idle = (i: number): boolean =>
    IDLE.has(byNode.get(samples[i]!)?.callFrame.functionName ?? '(idle)')
  let busyMs = 0
  const runs: { from: number; to: number; ms: number }[] = []
  let run = { from: 0, to: 0, ms: 0 }
  for (let i = 0; i < samples.length; i++) {
    const ms = (deltas[i + 1] ?? 0) / 1000
    if (idle(i)) {
      if (run.ms > 0) runs.push(run)
      run = { from: i + 1, to: i + 1, ms: 0 }
      continue
    }
    busyMs += ms
    run.ms += ms
    run.to = i + 1
  }
  if (run.ms > 0) runs.push(run)
  return {
    busyMs,
    metrics,
    hot: sum(profile, parents, 0, samples.length, top),
    longest: runs
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 2)
      .map((r) => ({ ms: r.ms, hot: sum(profile, parents, r.from, r.to, 12) })),
  }
}

function printHot(hot: HotFunction[]): void {
  console.log(`     ${'self ms'.padStart(8)}${'total ms'.padStart(9)}  function`)
  for (const h of hot) {
    console.log(
      `     ${h.selfMs.toFixed(0).padStart(8)}${h.totalMs.toFixed(0).padStart(9)}  ${h.name.slice(0, 40).padEnd(40)} ${h.where}`,
    )
  }
}

/** the `top` functions by self time, over the window and over its longest busy stretches */
export function printProfile(title: string, p: ProfileSummary, top = 20): void {
  const kinds = Object.entries(p.metrics)
    .map(([k, ms]) => `${k} ${ms.toFixed(0)} ms`)
    .join(', ')
  console.log(`   CPU profile, ${title}: ${p.busyMs.toFixed(0)} ms busy (${kinds}); by self time`)
  printHot(p.hot.slice(0, top))
  for (const [i, l] of p.longest.entries()) {
    console.log(
      `   its ${i === 0 ? 'longest' : 'next longest'} busy stretch (${l.ms.toFixed(0)} ms)`,
    )
    printHot(l.hot.slice(0, top))
  }
}
