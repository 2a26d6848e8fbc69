/**
 * The probe the benchmark puts into every page before the app's scripts (an init script):
 * long tasks from a PerformanceObserver, frame times from a requestAnimationFrame loop
 * while recording, and a MutationObserver that says when a text appears, the frame after,
 * and the first frame where it is on screen. Runs in the page as its source text: no
 * imports, no outside names.
 */
import type { FrameWindow, PageElement, PageGlobals, PageNode, Probe, TextSeen } from './types'

export function installProbe(): void {
  const w = globalThis as unknown as PageGlobals
  if (w.__cairnBench) return
  const longTasks: { start: number; duration: number }[] = []
  new w.PerformanceObserver((list) => {
    for (const e of list.getEntries()) longTasks.push({ start: e.startTime, duration: e.duration })
  }).observe({ type: 'longtask', buffered: true })

  // each recording has a number: the loop of an earlier one stops at its next frame
  let run = 0
  let start = 0
  let times: number[] = []

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

  /** the innermost element holding `text` (its bottom is where the text ends) */
  const deepest = (e: PageElement, text: string): PageElement => {
    for (;;) {
      let next: PageElement | null = null
      for (let i = e.children.length - 1; i >= 0 && !next; i--) {
        if ((e.children[i]!.textContent ?? '').includes(text)) next = e.children[i]!
      }
      if (!next) return e
      e = next
    }
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
      const id = ++run
      times = []
      start = w.performance.now()
      const step = (t: number): void => {
        if (id !== run) return
        times.push(t)
        w.requestAnimationFrame(step)
      }
      w.requestAnimationFrame(step)
    },
    stopFrames(until?: number): FrameWindow {
      run++
      const end = until ?? w.performance.now()
      const ts = times.filter((t) => t <= end)
      return {
        start,
        end,
        deltas: ts.slice(1).map((t, i) => t - ts[i]!),
        times: ts.slice(1),
        longTasks: longTasks.filter((l) => l.start >= start && l.start < end),
      }
    },
    watchText(text, scope) {
      return new Promise<TextSeen>((resolve) => {
        let found: PageElement | null = null
        /** the element under `scope` holding the text: n's own, or one inside n (a row added whole) */
        const holding = (n: PageNode): PageElement | null => {
          if (!(n.textContent ?? '').includes(text)) return null
          const e = elementOf(n)
          if (!e) return null
          if (e.closest(scope)) return e
          if (n.nodeType !== 1) return null
          const inner = e.querySelectorAll(scope)
          for (let i = inner.length - 1; i >= 0; i--) {
            if ((inner[i]!.textContent ?? '').includes(text)) return inner[i]!
          }
          return null
        }
        const seen: TextSeen = {
          seenAt: 0,
          frameAt: 0,
          visibleAt: null,
          timeOrigin: w.performance.timeOrigin,
        }
        // the frames after: the first one, then until it is on screen (at most ~5 s)
        const frame = (left: number): void => {
          w.requestAnimationFrame(() => {
            const now = w.performance.now()
            if (seen.frameAt === 0) seen.frameAt = now
            found = holder(found, text, scope)
            if (found && onScreen(deepest(found, text))) {
              seen.visibleAt = now
              resolve(seen)
            } else if (left <= 0) resolve(seen)
            else frame(left - 1)
          })
        }
        const observer = new w.MutationObserver((records) => {
          for (const r of records) {
            const nodes: PageNode[] = r.type === 'characterData' ? [r.target] : []
            for (let i = 0; i < r.addedNodes.length; i++) nodes.push(r.addedNodes[i]!)
            for (const n of nodes) {
              found = holding(n)
              if (!found) continue
              observer.disconnect()
              seen.seenAt = w.performance.now()
              frame(300)
              return
            }
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
