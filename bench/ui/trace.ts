/**
 * `--trace`: Chromium's trace of the page over a measured window, summed into the renderer
 * main thread's CPU time per kind of work (script, style, layout, pre-paint, paint…). The
 * trace's thread time (`tdur`) counts only the time the thread ran, so, unlike frame rates
 * and wall-clock durations, these figures do not grow when other processes load the machine.
 */
import type { CDPSession } from 'playwright-core'

const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'toplevel']

/** trace event names, by the kind of work this summary calls them */
const KINDS: Record<string, string> = {
  FunctionCall: 'script',
  EvaluateScript: 'script',
  TimerFire: 'script',
  FireAnimationFrame: 'script',
  RunMicrotasks: 'script',
  EventDispatch: 'script',
  UpdateLayoutTree: 'style',
  Layout: 'layout',
  PrePaint: 'pre-paint',
  Paint: 'paint',
  Layerize: 'layerize',
  UpdateLayer: 'layerize',
  Commit: 'commit',
  HitTest: 'hit test',
  IntersectionObserverController: 'observers',
  ResizeObserverController: 'observers',
  MajorGC: 'gc',
  MinorGC: 'gc',
}

interface TraceEvent {
  name: string
  ph: string
  pid: number
  tid: number
  ts: number
  dur?: number
  tdur?: number
  args?: { name?: string }
}

export interface TraceSummary {
  /** the main thread's CPU time in its tasks (ms) */
  tasksMs: number
  /** CPU ms per kind, outermost events only (a layout forced by a script counts as layout) */
  kinds: Record<string, number>
}

export async function startTrace(cdp: CDPSession): Promise<void> {
  await cdp.send('Tracing.start', {
    transferMode: 'ReturnAsStream',
    traceConfig: { includedCategories: CATEGORIES, recordMode: 'recordAsMuchAsPossible' },
  })
}

async function readStream(cdp: CDPSession, handle: string): Promise<string> {
  let out = ''
  for (;;) {
    const r = await cdp.send('IO.read', { handle, size: 1 << 20 })
    out += r.base64Encoded ? Buffer.from(r.data, 'base64').toString('utf8') : r.data
    if (r.eof) break
  }
  await cdp.send('IO.close', { handle })
  return out
}

export async function stopTrace(cdp: CDPSession): Promise<TraceSummary> {
  const done = new Promise<string>((resolve) => {
    cdp.once('Tracing.tracingComplete', (e) => resolve(e.stream ?? ''))
  })
  await cdp.send('Tracing.end')
  const handle = await done
  const parsed = JSON.parse(await readStream(cdp, handle)) as
    TraceEvent[] | { traceEvents: TraceEvent[] }
  const events = Array.isArray(parsed) ? parsed : parsed.traceEvents
  return summarize(events)
}

/**
 * The renderer main thread's work: each complete event's thread time under the kind of its
 * outermost event with a kind (the time of a layout a script forces is the layout's; the
 * rest of the script's is the script's).
 */
export function summarize(events: TraceEvent[]): TraceSummary {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
  const spans = events
    .filter(
      (e) =>
        main !== undefined &&
        e.pid === main.pid &&
        e.tid === main.tid &&
        e.ph === 'X' &&
        e.tdur !== undefined,
    )
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0))
  const kinds: Record<string, number> = {}
  let tasksMs = 0
  // the open events, outermost first, with the thread time of their kinded children
  const stack: { end: number; kind: string | null; own: number; child: number }[] = []
  const close = (upTo: number): void => {
    while (stack.length > 0 && stack[stack.length - 1]!.end <= upTo) {
      const top = stack.pop()!
      const self = Math.max(0, top.own - top.child)
      if (top.kind) kinds[top.kind] = (kinds[top.kind] ?? 0) + self / 1000
      // a kinded event's whole time is taken out of the innermost kinded event around it
      const parent = [...stack].reverse().find((s) => s.kind)
      if (top.kind && parent) parent.child += top.own
    }
  }
  for (const e of spans) {
    close(e.ts)
    if (e.name === 'RunTask' && stack.length === 0) tasksMs += (e.tdur ?? 0) / 1000
    stack.push({
      end: e.ts + (e.dur ?? 0),
      kind: KINDS[e.name] ?? null,
      own: e.tdur ?? 0,
      child: 0,
    })
  }
  close(Infinity)
  return { tasksMs, kinds }
}

/** the summary, and per frame (`frames` drawn over the window) */
export function traceLine(t: TraceSummary, frames: number): string {
  const kinds = Object.entries(t.kinds)
    .sort((a, b) => b[1] - a[1])
    .map(([k, ms]) => `${k} ${ms.toFixed(0)}`)
    .join(', ')
  const perFrame =
    frames > 0 ? `, ${(t.tasksMs / frames).toFixed(1)} ms a frame over ${frames}` : ''
  return `trace (thread CPU ms): tasks ${t.tasksMs.toFixed(0)}${perFrame}: ${kinds}`
}
