/**
 * Opening a long session: a fresh tab on the new-chat screen (cold query cache), then a
 * click on the session in the sidebar and the time until its last message (its marker) is
 * on screen and the next frame ran. Then the DOM nodes in the conversation once it settled.
 */
import type { Page } from 'playwright-core'
import type { BenchBrowser } from './browser'
import { CONVERSATION, countNodes, longTasksSince, sleep, withTimeout } from './page/calls'
import type { PageElement, PageGlobals, TextSeen } from './page/types'
import { printProfile, startProfile, stopProfile } from './profile'
import type { SeededSession } from './seed'

export interface OpenResult {
  /** ms from the click to the last message painted, per repetition */
  times: number[]
  /** DOM nodes under the conversation region after each open */
  nodes: number[]
  /** the longest main-thread task during each open (0: none over 50 ms) */
  longestTask: number[]
  /** repetitions where the last message was not within the visible area */
  notVisible: number
}

const SETTLE_MS = 1_000

interface Opened {
  ms: number
  visible: boolean
  t0: number
}

const SESSIONS = 'section[aria-label="Sessions"]'

async function openFromNewChat(page: Page, session: SeededSession): Promise<Opened> {
  const row = page.locator(`${SESSIONS} [role="listitem"] button`, { hasText: session.title })
  await row.first().waitFor()
  const opened = page.evaluate(
    ([title, marker, scope, list]) => {
      const w = globalThis as unknown as PageGlobals
      const buttons = w.document.querySelectorAll(`${list} [role="listitem"] button`)
      let button: PageElement | null = null
      for (let i = 0; i < buttons.length && !button; i++) {
        if ((buttons[i]!.textContent ?? '').includes(title)) button = buttons[i]!
      }
      if (!button) throw new Error(`no session named ${title} in the sidebar`)
      const seen = w.__cairnBench!.watchText(marker, scope)
      const t0 = w.performance.now()
      button.click()
      return seen.then((s: TextSeen) => ({
        ms: (s.visibleAt ?? s.frameAt) - t0,
        visible: s.visibleAt !== null,
        t0,
      }))
    },
    [session.title, session.marker, CONVERSATION, SESSIONS] as const,
  )
  return withTimeout(opened, 30_000, `opening ${session.title}`)
}

export async function measureOpen(
  browser: BenchBrowser,
  session: SeededSession,
  opts: { repetitions: number; profile: boolean },
): Promise<OpenResult> {
  const result: OpenResult = { times: [], nodes: [], longestTask: [], notVisible: 0 }
  for (let i = 0; i < opts.repetitions; i++) {
    const { page, close } = await browser.open()
    try {
      await sleep(SETTLE_MS)
      const opened = await openFromNewChat(page, session)
      await sleep(SETTLE_MS)
      const tasks = await longTasksSince(page, opened.t0)
      const during = tasks.filter((t) => t.start < opened.t0 + opened.ms)
      result.times.push(opened.ms)
      result.nodes.push(await countNodes(page))
      result.longestTask.push(Math.max(0, ...during.map((t) => t.duration)))
      if (!opened.visible) result.notVisible++
    } finally {
      await close()
    }
  }
  if (opts.profile) {
    // one more, not counted: the profiler slows the page down
    const { page, cdp, close } = await browser.open()
    try {
      await sleep(SETTLE_MS)
      await startProfile(cdp)
      const opened = await openFromNewChat(page, session)
      printProfile(
        `one open (${opened.ms.toFixed(0)} ms with the profiler on)`,
        await stopProfile(cdp),
      )
    } finally {
      await close()
    }
  }
  return result
}
