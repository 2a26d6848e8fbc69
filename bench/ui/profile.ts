/**
 * `--profile`: a CDP CPU profile of the page over a measured window, summed into self time
 * per function (name, script, line) so that a missed target says where the time went. With
 * the minified build the names are short; build the renderer unminified to read them.
 */
import type { CDPSession } from 'playwright-core'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number }
}

interface CpuProfile {
  nodes: ProfileNode[]
  samples?: number[]
  timeDeltas?: number[]
  startTime: number
  endTime: number
}

export interface HotFunction {
  name: string
  where: string
  selfMs: number
  share: number
}

export async function startProfile(cdp: CDPSession): Promise<void> {
  await cdp.send('Profiler.enable')
  await cdp.send('Profiler.setSamplingInterval', { interval: 250 })
  await cdp.send('Profiler.start')
}

export async function stopProfile(cdp: CDPSession, top = 25): Promise<HotFunction[]> {
  const { profile } = (await cdp.send('Profiler.stop')) as { profile: CpuProfile }
  await cdp.send('Profiler.disable')
  const byNode = new Map(profile.nodes.map((n) => [n.id, n]))
  const self = new Map<string, { name: string; where: string; us: number }>()
  const samples = profile.samples ?? []
  const deltas = profile.timeDeltas ?? []
  let total = 0
  for (let i = 0; i < samples.length; i++) {
    const node = byNode.get(samples[i]!)
    // a sample's time is the delta to the next one
    const us = deltas[i + 1] ?? 0
    if (!node) continue
    const f = node.callFrame
    const file = f.url.split('/').pop() || f.url
    const key = `${f.functionName}|${f.url}|${f.lineNumber}|${f.columnNumber}`
    const entry = self.get(key) ?? {
      name: f.functionName || '(anonymous)',
      where: file ? `${file}:${f.lineNumber + 1}:${f.columnNumber + 1}` : '',
      us: 0,
    }
    entry.us += us
    self.set(key, entry)
    if (f.functionName !== '(idle)') total += us
  }
  return [...self.values()]
    .filter((e) => e.name !== '(idle)')
    .sort((a, b) => b.us - a.us)
    .slice(0, top)
    .map((e) => ({ name: e.name, where: e.where, selfMs: e.us / 1000, share: e.us / total }))
}

export function printProfile(title: string, hot: HotFunction[]): void {
  console.log(`   CPU profile, ${title}: self time by function (busy time only)`)
  for (const h of hot) {
    console.log(
      `     ${h.selfMs.toFixed(0).padStart(7)} ms ${(h.share * 100).toFixed(1).padStart(5)}%  ${h.name.slice(0, 48).padEnd(48)} ${h.where}`,
    )
  }
}
