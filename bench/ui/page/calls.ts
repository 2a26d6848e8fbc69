/** Calls into the page's probe (`probe.ts`) from the driver. */
import type { Page } from 'playwright-core'
import type { FrameWindow, LongTask, PageGlobals, TextSeen } from './types'

export const ANSWER = 'article[aria-label="Cairn"]'
export const CONVERSATION = 'section[aria-label="Conversation"]'

export function sleep(ms: number): Promise<void> {
  return new Promise((r) => setTimeout(r, ms))
}

/** `p`, or an error naming `what` after `ms` */
export async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  try {
    return await Promise.race([
      p,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: no answer in ${ms / 1000} s`)), ms)
      }),
    ])
  } finally {
    clearTimeout(timer)
  }
}

export async function startFrames(page: Page): Promise<void> {
  await page.evaluate(() => (globalThis as unknown as PageGlobals).__cairnBench!.startFrames())
}

/** the frames since `startFrames`, up to `until` (performance.now(); default: now) */
export function stopFrames(page: Page, until?: number): Promise<FrameWindow> {
  return page.evaluate(
    (u) => (globalThis as unknown as PageGlobals).__cairnBench!.stopFrames(u ?? undefined),
    until ?? null,
  )
}

/** frames (and long tasks) over `ms` of whatever the page is doing */
export async function recordFrames(page: Page, ms: number): Promise<FrameWindow> {
  await startFrames(page)
  await sleep(ms)
  return stopFrames(page)
}

/** starts watching for `text` under `scope`; the promise resolves when it is on screen */
export function watchText(page: Page, text: string, scope: string): Promise<TextSeen> {
  return page.evaluate(
    ([t, s]) => (globalThis as unknown as PageGlobals).__cairnBench!.watchText(t, s),
    [text, scope] as const,
  )
}

export function countNodes(page: Page, selector = CONVERSATION): Promise<number> {
  return page.evaluate(
    (s) => (globalThis as unknown as PageGlobals).__cairnBench!.countNodes(s),
    selector,
  )
}

/** long tasks that started after `since` (performance.now()) */
export function longTasksSince(page: Page, since: number): Promise<LongTask[]> {
  return page.evaluate(
    (t) =>
      (globalThis as unknown as PageGlobals).__cairnBench!.longTasks.filter((l) => l.start >= t),
    since,
  )
}

/** a fresh page with `hash` opened shows the session's last message (its marker) */
export async function waitForMarker(page: Page, marker: string): Promise<void> {
  await page.locator(ANSWER).filter({ hasText: marker }).last().waitFor({ timeout: 30_000 })
}
