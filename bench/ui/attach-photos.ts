/**
 * Attaching photos while an answer streams: a second into a stream (the `mixed` shape, into
 * a session of 500 messages), ten 12-megapixel phone photos (JPEG, EXIF orientation and a
 * GPS position) are chosen in "Attach files" at once. The engine reads, stores and shrinks
 * each (its thumbnail made by sharp in the engine's process, not on the window's thread);
 * the window shows a chip with a progress indicator until it has. Every frame is recorded
 * from the choice until the last chip shows its thumbnail, and over the whole stream.
 */
import { randomBytes } from 'node:crypto'
import { phonePhoto } from '../../tests/support/attachment-files'
import type { BenchBrowser } from './browser'
import type { ModelServer } from './model-server'
import {
  ANSWER,
  sleep,
  startFrames,
  stopFrames,
  waitForMarker,
  watchText,
  withTimeout,
} from './page/calls'
import type { FrameWindow } from './page/types'
import type { SeededSession } from './seed'
import { frameStats, slice } from './stats'
import { SETTLE_MS } from './stream'

export interface AttachResult {
  photos: number
  /** one photo's size in bytes */
  photoBytes: number
  /** from the choice to the last thumbnail on screen (ms) */
  readyMs: number
  /** the frames from the choice to the last thumbnail */
  attach: FrameWindow
  /** the frames of the whole stream */
  stream: FrameWindow
}

export async function measureAttachWhileStreaming(
  browser: BenchBrowser,
  server: ModelServer,
  session: SeededSession,
  opts: { photos: number; rate: number; seconds: number },
): Promise<AttachResult> {
  const photo = Buffer.from(await phonePhoto(4000, 3000))
  const files = Array.from({ length: opts.photos }, (_, i) => ({
    name: `photo-${i + 1}.jpg`,
    mimeType: 'image/jpeg',
    buffer: photo,
  }))
  const { page, close } = await browser.open(`#/session/${session.id}`)
  try {
    await waitForMarker(page, session.marker)
    await sleep(SETTLE_MS)
    const final = `zqfinal${randomBytes(6).toString('hex')}`
    await server.plan({ rate: opts.rate, seconds: opts.seconds, final, shape: 'mixed' })
    const box = page.getByRole('textbox', { name: 'Message' })
    await box.fill('Tell me about the render loop while I pick some photos.')
    const seen = watchText(page, final, ANSWER)
    await startFrames(page)
    await box.press('Enter')
    await sleep(1_000)
    const chosenAt = await page.evaluate(() => performance.now())
    await page.getByLabel('Files to attach').setInputFiles(files)
    const chips = page.getByRole('list', { name: 'Attachments' })
    await chips
      .locator('img.chip-thumb')
      .nth(opts.photos - 1)
      .waitFor({ timeout: 120_000 })
    await page.getByRole('progressbar').first().waitFor({ state: 'detached', timeout: 120_000 })
    const readyAt = await page.evaluate(() => performance.now())
    const shown = await withTimeout(seen, (opts.seconds + 60) * 1000, 'the stream under the photos')
    const stream = await stopFrames(page, shown.frameAt)
    return {
      photos: opts.photos,
      photoBytes: photo.byteLength,
      readyMs: readyAt - chosenAt,
      attach: slice(stream, chosenAt, Math.min(readyAt, stream.end)),
      stream,
    }
  } finally {
    await close()
  }
}

export const ATTACH_TARGET_FPS = 55

export function printAttach(r: AttachResult): void {
  const a = frameStats(r.attach)
  const s = frameStats(r.stream)
  const mb = (r.photoBytes / 1024 / 1024).toFixed(1)
  console.log(
    `   ${r.photos} photos of 12 MP (${mb} MB each) chosen a second into the stream: all shown in ${(r.readyMs / 1000).toFixed(1)} s`,
  )
  console.log(
    `   while attaching: ${a.fps.toFixed(1)} fps (target ≥ ${ATTACH_TARGET_FPS}), frame p95 ${a.p95.toFixed(1)} ms, longest ${a.max.toFixed(0)} ms, tasks > 50 ms: ${a.longTasks}${a.longTasks ? ` (longest ${a.longestTask.toFixed(0)} ms)` : ''}  ${a.fps >= ATTACH_TARGET_FPS ? 'PASS' : 'MISS'}`,
  )
  console.log(
    `   the whole stream: ${s.fps.toFixed(1)} fps, frame p95 ${s.p95.toFixed(1)} ms over ${s.seconds.toFixed(1)} s`,
  )
}
