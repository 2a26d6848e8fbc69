/**
 * Opening a long session: a fresh tab on the new-chat screen (cold query cache), then
 * `location.hash = '#/session/<id>'` (what a click in a session list will do) and the time
 * until its last message (its marker) is on screen and the next frame ran. Then the DOM
 * nodes in the conversation once it settled.
 */
import type { BenchBrowser } from './browser'
import { CONVERSATION, countNodes, longTasksSince, sleep } from './page/calls'
import type { PageGlobals, TextSeen } from './page/types'
import type { SeededSession } from './seed'

export interface OpenResult {
  /** ms from the hash change to the last message painted, per repetition */
  times: number[]
  /** DOM nodes under the conversation region after each open */
  nodes: number[]
  /** the longest main-thread task during each open (0: none over 50 ms) */
  longestTask: number[]
  /** repetitions where the last message was not within the visible area */
  notVisible: number
}

const SETTLE_MS = 1_000

export async function measureOpen(
  browser: BenchBrowser,
  session: SeededSession,
  repetitions: number,
): Promise<OpenResult> {
  const result: OpenResult = { times: [], nodes: [], longestTask: [], notVisible: 0 }
  for (let i = 0; i < repetitions; i++) {
    const { page, close } = await browser.open('')
    try {
      await sleep(SETTLE_MS)
      const opened = await page.evaluate(
        ([id, marker, scope]) => {
          const w = globalThis as unknown as PageGlobals
          const t0 = w.performance.now()
          const seen = w.__cairnBench!.watchText(marker, scope, true)
          w.location.hash = `#/session/${id}`
          return seen.then((s: TextSeen) => ({ ms: s.paintedAt - t0, visible: s.visible, t0 }))
        },
        [session.id, session.marker, CONVERSATION] as const,
      )
      await sleep(SETTLE_MS)
      const tasks = await longTasksSince(page, opened.t0)
      result.times.push(opened.ms)
      result.nodes.push(await countNodes(page))
      const during = tasks.filter((t) => t.start < opened.t0 + opened.ms)
      result.longestTask.push(Math.max(0, ...during.map((t) => t.duration)))
      if (!opened.visible) result.notVisible++
    } finally {
      await close()
    }
  }
  return result
}
