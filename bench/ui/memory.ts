/**
 * The renderer's JS heap around a stream (after a full GC each time): with the session open
 * and idle, after 10 s of streaming, and after the whole stream (20 s) once the turn ended.
 * Growth that is proportional to the tokens streamed, beyond the text itself, is a leak.
 */
import { randomBytes } from 'node:crypto'
import type { BenchBrowser } from './browser'
import { heapAfterGc, type HeapSample } from './heap'
import type { ModelServer } from './model-server'
import { ANSWER, sleep, waitForMarker, watchText } from './page/calls'
import type { SeededSession } from './seed'
import { SETTLE_MS } from './stream'

export interface MemoryResult {
  rate: number
  idle: HeapSample
  mid: HeapSample
  end: HeapSample
  /** characters streamed when `mid` was taken, and in all */
  midChars: number
  endChars: number
  midSeconds: number
  seconds: number
}

export async function measureMemory(
  browser: BenchBrowser,
  server: ModelServer,
  session: SeededSession,
  opts: { rate: number; seconds: number },
): Promise<MemoryResult> {
  const { page, cdp, close } = await browser.open(`#/session/${session.id}`)
  try {
    await waitForMarker(page, session.marker)
    await sleep(SETTLE_MS)
    const idle = await heapAfterGc(cdp)

    const final = `zqfinal${randomBytes(6).toString('hex')}`
    await server.plan({ rate: opts.rate, seconds: opts.seconds, final })
    const box = page.getByRole('textbox', { name: 'Message' })
    await box.fill(`Explain the render loop once more, at length (${opts.rate} tokens/s).`)
    const seen = watchText(page, final, ANSWER)
    await box.press('Enter')

    let startedAt = 0
    for (let i = 0; i < 200 && startedAt === 0; i++) {
      const s = await server.state()
      if (s.current) startedAt = s.current.startedAt
      else await sleep(50)
    }
    if (startedAt === 0) throw new Error('the memory stream did not start')
    const midSeconds = opts.seconds / 2
    await sleep(startedAt + midSeconds * 1000 - Date.now())
    const mid = await heapAfterGc(cdp)
    const midChars = (await server.state()).current?.chars ?? NaN

    await seen
    const record = await server.finished(final)
    await sleep(SETTLE_MS)
    const end = await heapAfterGc(cdp)
    return {
      rate: opts.rate,
      idle,
      mid,
      end,
      midChars,
      endChars: record.chars,
      midSeconds,
      seconds: opts.seconds,
    }
  } finally {
    await close()
  }
}
