/**
 * The probe the benchmark puts into every page before the app's scripts (an init script):
 * long tasks from a PerformanceObserver, frame deltas from a requestAnimationFrame loop
 * while recording, and a MutationObserver that says when a text appears (and the frame
 * after it). Runs in the page as its source text: no imports, no outside names.
 */
import type { FrameWindow, PageElement, PageGlobals, PageNode, Probe, TextSeen } from './types'

export function installProbe(): void {
  const w = globalThis as unknown as PageGlobals
  if (w.__cairnBench) return
  const longTasks: { start: number; duration: number }[] = []
  new w.PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })

  let recording = false
  let start = 0
  let last = 0
  let deltas: number[] = []
  const loop = (t: number): void => {
    if (!recording) return
    deltas.push(t - last)
    last = t
    w.requestAnimationFrame(loop)
  }

  const elementOf = (n: PageNode): PageElement | null =>
    n.nodeType === 1 ? (n as PageElement) : n.parentElement

  /** the element's bottom edge is within the conversation's visible area */
  const onScreen = (e: PageElement): boolean => {
    const view = w.document.querySelector('[data-virtuoso-scroller]')
    if (!view) return false
    const r = e.getBoundingClientRect()
    const v = view.getBoundingClientRect()
    return r.bottom <= v.bottom + 2 && r.bottom >= v.top
  }

  /** the element now holding `text` (React may have replaced the one first seen) */
  const holder = (seen: PageElement | null, text: string, scope: string): PageElement | null => {
    if (seen?.isConnected) return seen
    const all = w.document.querySelectorAll(scope)
    for (let i = all.length - 1; i >= 0; i--) {
      if ((all[i]!.textContent ?? '').includes(text)) return all[i]!
    }
    return null
  }

  const probe: Probe = {
    longTasks,
    startFrames() {
      deltas = []
      recording = true
      start = w.performance.now()
      w.requestAnimationFrame((t) => {
        last = t
        w.requestAnimationFrame(loop)
      })
    },
    stopFrames(): FrameWindow {
      recording = false
      const end = w.performance.now()
      return {
        start,
        end,
        deltas,
        longTasks: longTasks.filter((l) => l.start >= start && l.start < end),
      }
    },
    watchText(text, scope, mustBeVisible) {
      return new Promise<TextSeen>((resolve) => {
        let found: PageElement | null = null
        const has = (n: PageNode): boolean =>
          (n.textContent ?? '').includes(text) && elementOf(n)?.closest(scope) != null
        const after = (seenAt: number, framesLeft: number): void => {
          w.requestAnimationFrame(() => {
            found = holder(found, text, scope)
            const visible = found !== null && onScreen(found)
            if (mustBeVisible && !visible && framesLeft > 0) return after(seenAt, framesLeft - 1)
            resolve({
              seenAt,
              paintedAt: w.performance.now(),
              visible,
              timeOrigin: w.performance.timeOrigin,
            })
          })
        }
        const observer = new w.MutationObserver((records) => {
          for (const r of records) {
            const nodes: PageNode[] = r.type === 'characterData' ? [r.target] : []
            for (let i = 0; i < r.addedNodes.length; i++) nodes.push(r.addedNodes[i]!)
            const hit = nodes.find(has)
            if (!hit) continue
            found = elementOf(hit)
            observer.disconnect()
            after(w.performance.now(), 300)
            return
          }
        })
        observer.observe(w.document.body, { subtree: true, childList: true, characterData: true })
      })
    },
    countNodes(selector) {
      return w.document.querySelectorAll(`${selector} *`).length
    },
  }
  w.__cairnBench = probe
}

/** tsx (esbuild with keepNames) wraps named functions in `__name(...)`: give the page one */
export const NAME_SHIM = 'globalThis.__name = globalThis.__name || ((f) => f)'
