/**
 * A stream into a long session: open the session in a fresh tab, optionally measure it idle,
 * send a message and record every frame until the model's final token is on screen; then
 * the few seconds after (the turn ends and the stored answer replaces the live one). The
 * page presses "Jump to latest" whenever the list stops following (`page/follow.ts`), so
 * the frames are those of an answer being read; how often it had to is reported.
 */
import { randomBytes } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { BenchBrowser } from './browser'
import type { ModelServer } from './model-server'
import {
  ANSWER,
  longTasksSince,
  recordFrames,
  sleep,
  startFrames,
  stopFrames,
  waitForMarker,
  watchText,
  withTimeout,
} from './page/calls'
import { startFollowWatch, stopFollowWatch, type FollowReport } from './page/follow'
import type { FrameWindow } from './page/types'
import {
  printProfile,
  rendererTimes,
  startProfile,
  stopProfile,
  timesBetween,
  type ProfileSummary,
} from './profile'
import type { SeededSession } from './seed'
import type { ShapeName } from './shapes'
import { startTrace, stopTrace, type TraceSummary } from './trace'
import type { StreamRecord } from './token-server'

export interface StreamResult {
  shape: ShapeName
  rate: number
  idle: FrameWindow | null
  /** the main thread over the idle window */
  idleTimes: Record<string, number>
  stream: FrameWindow
  /** the 3 s after the final token was on screen (long tasks: all since then) */
  after: FrameWindow
  server: StreamRecord
  /**
   * ms from the server writing the final chunk (its wall clock) to the frame where the final
   * token was on screen (the page's wall clock); null when it was not scrolled into view
   */
  lastTokenMs: number | null
  /** the same, to the frame after the final token was in the DOM (on screen or not) */
  lastTokenInDomMs: number
  follow: FollowReport
  profile: ProfileSummary | null
  /** with --trace: the main thread's CPU time per kind of work over the stream */
  trace: TraceSummary | null
  /** the main thread over the stream (ms): its CPU time, and what its tasks did */
  times: Record<string, number>
}

export const SETTLE_MS = 2_000
const AFTER_MS = 3_000

export async function measureStream(
  browser: BenchBrowser,
  server: ModelServer,
  session: SeededSession,
  opts: {
    shape: ShapeName
    rate: number
    seconds: number
    idleSeconds: number
    /** a CPU profile, listing this many functions (0: none) */
    profile: number
    /** Chromium's trace of the stream, summed per kind of work */
    trace: boolean
  },
): Promise<StreamResult> {
  const { page, cdp, close } = await browser.open(`#/session/${session.id}`)
  try {
    await waitForMarker(page, session.marker)
    await sleep(SETTLE_MS)
    const idleBefore = await rendererTimes(cdp)
    const idle = opts.idleSeconds > 0 ? await recordFrames(page, opts.idleSeconds * 1000) : null
    const idleTimes = timesBetween(idleBefore, await rendererTimes(cdp))

    const final = `zqfinal${randomBytes(6).toString('hex')}`
    await server.plan({ rate: opts.rate, seconds: opts.seconds, final, shape: opts.shape })
    const box = page.getByRole('textbox', { name: 'Message' })
    await box.fill(`Explain the render loop once more, at length (${opts.rate} tokens/s).`)
    const seen = watchText(page, final, ANSWER)
    if (opts.profile > 0) await startProfile(cdp)
    if (opts.trace) await startTrace(cdp)
    await startFollowWatch(page, 'press')
    const timesBefore = await rendererTimes(cdp)
    await startFrames(page)
    await box.press('Enter')
    const shown = await withTimeout(
      seen,
      (opts.seconds + 60) * 1000,
      `the final token of the ${opts.shape} stream at ${opts.rate} tok/s`,
    ).catch(async (e: unknown) => {
      const state = JSON.stringify(await server.state())
      const inPage = await page.getByText(final).count()
      const shot = join(tmpdir(), `cairn-bench-ui-failure-${Date.now()}.png`)
      await page.screenshot({ path: shot })
      throw new Error(
        `${String(e)} (in the page: ${inPage}; server: ${state}; screenshot: ${shot})`,
      )
    })
    // the stream's frames end when its last token is on screen (or was in the DOM)
    const stream = await stopFrames(page, shown.visibleAt ?? shown.frameAt)
    const times = timesBetween(timesBefore, await rendererTimes(cdp))
    const trace = opts.trace ? await stopTrace(cdp) : null
    const follow = await stopFollowWatch(page)
    const profile = opts.profile > 0 ? await stopProfile(cdp, opts.profile) : null
    const frames = await recordFrames(page, AFTER_MS)
    // its long tasks from the end of the stream's window on (none falls between the two)
    const tasks = await longTasksSince(page, stream.end)
    const after = { ...frames, longTasks: tasks.filter((t) => t.start < frames.end) }
    const record = await server.finished(final)
    if (profile) printProfile(`${opts.shape} at ${opts.rate} tok/s`, profile, opts.profile)
    return {
      shape: opts.shape,
      rate: opts.rate,
      idle,
      idleTimes,
      stream,
      after,
      server: record,
      lastTokenMs:
        shown.visibleAt === null
          ? null
          : shown.timeOrigin + shown.visibleAt - record.finalWrittenAt!,
      lastTokenInDomMs: shown.timeOrigin + shown.frameAt - record.finalWrittenAt!,
      follow,
      profile,
      trace,
      times,
    }
  } finally {
    await close()
  }
}
