/**
 * Scrolling up through the 10 000-message session: in a fresh tab opened at its end, the
 * page measured idle, then `scrollTop` moved up at a steady speed every frame for a few
 * seconds (so older pages load as the top is reached), recording frames, the most DOM nodes
 * in the conversation and how many rows up the list got.
 */
import type { BenchBrowser } from './browser'
import { CONVERSATION, recordFrames, sleep, waitForMarker } from './page/calls'
import type { FrameWindow, PageGlobals } from './page/types'
import type { SeededSession } from './seed'
import { SETTLE_MS } from './stream'

export interface ScrollResult {
  idle: FrameWindow
  scroll: FrameWindow
  pxPerSecond: number
  /** DOM nodes under the conversation: after opening, and the most seen while scrolling */
  nodesAtOpen: number
  maxNodes: number
  /** rows between the last row and the topmost one rendered while scrolling (data-item-index) */
  rowsUp: number
}

export async function measureScroll(
  browser: BenchBrowser,
  session: SeededSession,
  opts: { seconds: number; pxPerSecond: number },
): Promise<ScrollResult> {
  const { page, close } = await browser.open(`#/session/${session.id}`)
  try {
    await waitForMarker(page, session.marker)
    await sleep(SETTLE_MS)
    const idle = await recordFrames(page, opts.seconds * 1000)
    const r = await page.evaluate(
      ([ms, speed, scope]) => {
        const w = globalThis as unknown as PageGlobals
        const probe = w.__cairnBench!
        const scroller = w.document.querySelector('[data-virtuoso-scroller]')
        if (!scroller) throw new Error('no [data-virtuoso-scroller] in the page')
        const indexes = (): { min: number; max: number } => {
          const items = scroller.querySelectorAll('[data-item-index]')
          let min = Infinity
          let max = -Infinity
          for (let i = 0; i < items.length; i++) {
            const n = Number(items[i]!.getAttribute('data-item-index'))
            min = Math.min(min, n)
            max = Math.max(max, n)
          }
          return { min, max }
        }
        const first = indexes()
        const nodesAtOpen = probe.countNodes(scope)
        let minIndex = first.min
        let maxNodes = nodesAtOpen
        let frame = 0
        probe.startFrames()
        const t0 = w.performance.now()
        let last = t0
        return new Promise<{
          window: ReturnType<typeof probe.stopFrames>
          nodesAtOpen: number
          maxNodes: number
          rowsUp: number
        }>((resolve) => {
          const step = (): void => {
            const now = w.performance.now()
            if (now - t0 >= ms) {
              resolve({
                window: probe.stopFrames(),
                nodesAtOpen,
                maxNodes,
                rowsUp: first.max - minIndex,
              })
              return
            }
            scroller.scrollTop -= (speed * (now - last)) / 1000
            last = now
            if (frame++ % 3 === 0) {
              maxNodes = Math.max(maxNodes, probe.countNodes(scope))
              minIndex = Math.min(minIndex, indexes().min)
            }
            w.requestAnimationFrame(step)
          }
          w.requestAnimationFrame(step)
        })
      },
      [opts.seconds * 1000, opts.pxPerSecond, CONVERSATION] as const,
    )
    return {
      idle,
      scroll: r.window,
      pxPerSecond: opts.pxPerSecond,
      nodesAtOpen: r.nodesAtOpen,
      maxNodes: r.maxNodes,
      rowsUp: r.rowsUp,
    }
  } finally {
    await close()
  }
}
