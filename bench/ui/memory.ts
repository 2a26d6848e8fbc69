/**
 * The renderer's JS heap around a stream (after a full GC each time): with the session open
 * and idle, after 10 s of streaming, 1 s before the stream ends, and once the turn ended.
 * The answer on screen costs memory in proportion to its size (its DOM); what must not
 * happen is that the cost per character grows as the stream goes on, or that anything of
 * the stream stays behind once the chat is left (beyond the stored text). The page is
 * left alone here (nothing presses "Jump to latest"): it also tells whether the list
 * follows the stream by itself.
 */
import { randomBytes } from 'node:crypto'
import type { BenchBrowser } from './browser'
import { heapAfterGc, type HeapSample } from './heap'
import type { ModelServer } from './model-server'
import { ANSWER, sleep, waitForMarker, watchText, withTimeout } from './page/calls'
import { startFollowWatch, stopFollowWatch, type FollowReport } from './page/follow'
import type { SeededSession } from './seed'
import type { ShapeName } from './shapes'
import { SETTLE_MS } from './stream'

export interface HeapPoint extends HeapSample {
  /** seconds since the stream's first write */
  at: number
  /** characters streamed by then */
  chars: number
}

export interface MemoryResult {
  shape: ShapeName
  rate: number
  idle: HeapSample
  /** while streaming: at half the stream, and 1 s before its end */
  mid: HeapPoint
  late: HeapPoint
  /** the turn ended and settled */
  end: HeapPoint
  /** after leaving the chat for a new one: what the page still holds */
  left: HeapSample
  follow: FollowReport
}

export async function measureMemory(
  browser: BenchBrowser,
  server: ModelServer,
  session: SeededSession,
  opts: { shape: ShapeName; rate: number; seconds: number },
): Promise<MemoryResult> {
  const { page, cdp, close } = await browser.open(`#/session/${session.id}`)
  try {
    await waitForMarker(page, session.marker)
    await sleep(SETTLE_MS)
    const idle = await heapAfterGc(cdp)

    const final = `zqfinal${randomBytes(6).toString('hex')}`
    await server.plan({ rate: opts.rate, seconds: opts.seconds, final, shape: opts.shape })
    const box = page.getByRole('textbox', { name: 'Message' })
    await box.fill(`Explain the render loop once more, at length (${opts.rate} tokens/s).`)
    const seen = watchText(page, final, ANSWER)
    await startFollowWatch(page, 'watch')
    await box.press('Enter')

    let startedAt = 0
    for (let i = 0; i < 200 && startedAt === 0; i++) {
      const s = await server.state()
      if (s.current) startedAt = s.current.startedAt
      else await sleep(50)
    }
    if (startedAt === 0) throw new Error('the memory stream did not start')
    const sample = async (at: number): Promise<HeapPoint> => {
      await sleep(startedAt + at * 1000 - Date.now())
      // the characters first: on a busy machine the stream may be over once the GC ran
      const state = await server.state()
      const chars = (state.current ?? state.last)?.chars ?? NaN
      const heap = await heapAfterGc(cdp)
      return { ...heap, at, chars }
    }
    const mid = await sample(opts.seconds / 2)
    const late = await sample(opts.seconds - 1)

    await withTimeout(seen, 60_000, `the final token of the ${opts.rate} tok/s memory stream`)
    const follow = await stopFollowWatch(page)
    const record = await server.finished(final)
    await sleep(SETTLE_MS)
    const end = { ...(await heapAfterGc(cdp)), at: opts.seconds, chars: record.chars }
    await page.getByRole('button', { name: 'New chat' }).click()
    await page.getByRole('heading', { name: 'What can I help with?' }).waitFor()
    await sleep(SETTLE_MS)
    const left = await heapAfterGc(cdp)
    return { shape: opts.shape, rate: opts.rate, idle, mid, late, end, left, follow }
  } finally {
    await close()
  }
}
