/**
 * Whether the conversation follows a stream by itself: every frame, looks for the
 * conversation's "Jump to latest" button (shown when the list is not at its end). In `press`
 * mode it presses it, as a user who wants to read along would, so that the frames measured
 * are those of an answer on screen; in `watch` mode it only notes it.
 */
import type { Page } from 'playwright-core'
import type { PageElement, PageGlobals } from './types'

export interface FollowReport {
  /** frames in which the button was shown */
  framesShown: number
  /** times it was pressed */
  presses: number
  /** ms from the start to the first frame it was shown (null: never) */
  firstShownAfter: number | null
}

interface FollowState {
  stop: () => FollowReport
}

type WithFollow = PageGlobals & { __cairnFollow?: FollowState }

export async function startFollowWatch(page: Page, mode: 'press' | 'watch'): Promise<void> {
  await page.evaluate(
    ([m, scope]) => {
      const w = globalThis as unknown as WithFollow
      const t0 = w.performance.now()
      const report: FollowReport = { framesShown: 0, presses: 0, firstShownAfter: null }
      let on = true
      const jumpButton = (): PageElement | null => {
        // the section's own children: cheap, however large the answer is
        const buttons = w.document.querySelector(scope)?.children ?? { length: 0 }
        for (let i = 0; i < buttons.length; i++) {
          const b = buttons[i]!
          if ((b.textContent ?? '').trim() === 'Jump to latest') return b
        }
        return null
      }
      const step = (): void => {
        if (!on) return
        const b = jumpButton()
        if (b) {
          report.framesShown++
          report.firstShownAfter ??= w.performance.now() - t0
          if (m === 'press') {
            b.click()
            report.presses++
          }
        }
        w.requestAnimationFrame(step)
      }
      w.requestAnimationFrame(step)
      w.__cairnFollow = {
        stop: () => {
          on = false
          return report
        },
      }
    },
    [mode, 'section[aria-label="Conversation"]'] as const,
  )
}

export function stopFollowWatch(page: Page): Promise<FollowReport> {
  return page.evaluate(() => (globalThis as unknown as WithFollow).__cairnFollow!.stop())
}
