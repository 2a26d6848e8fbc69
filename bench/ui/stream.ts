/**
 * A stream into a long session: open the session in a fresh tab, optionally measure it idle,
 * send a message and record every frame until the model's final token is on screen; then
 * the few seconds after (the turn ends and the stored answer replaces the live one).
 */
import { randomBytes } from 'node:crypto'
import type { BenchBrowser } from './browser'
import type { ModelServer } from './model-server'
import {
  ANSWER,
  recordFrames,
  sleep,
  startFrames,
  stopFrames,
  waitForMarker,
  watchText,
} from './page/calls'
import type { FrameWindow } from './page/types'
import { printProfile, startProfile, stopProfile, type HotFunction } from './profile'
import type { SeededSession } from './seed'
import type { StreamRecord } from './token-server'

export interface StreamResult {
  rate: number
  idle: FrameWindow | null
  stream: FrameWindow
  /** the 3 s after the final token was on screen */
  after: FrameWindow
  server: StreamRecord
  /** final token on screen (page wall clock) − final chunk written (server wall clock), ms */
  lastTokenMs: number
  /** the final token was within the visible area when measured */
  visible: boolean
  profile: HotFunction[] | null
}

export const SETTLE_MS = 2_000
const AFTER_MS = 3_000

export async function measureStream(
  browser: BenchBrowser,
  server: ModelServer,
  session: SeededSession,
  opts: { rate: number; seconds: number; idleSeconds: number; profile: boolean },
): Promise<StreamResult> {
  const { page, cdp, close } = await browser.open(`#/session/${session.id}`)
  try {
    await waitForMarker(page, session.marker)
    await sleep(SETTLE_MS)
    const idle = opts.idleSeconds > 0 ? await recordFrames(page, opts.idleSeconds * 1000) : null

    const final = `zqfinal${randomBytes(6).toString('hex')}`
    await server.plan({ rate: opts.rate, seconds: opts.seconds, final })
    const box = page.getByRole('textbox', { name: 'Message' })
    await box.fill(`Explain the render loop once more, at length (${opts.rate} tokens/s).`)
    const seen = watchText(page, final, ANSWER)
    if (opts.profile) await startProfile(cdp)
    await startFrames(page)
    await box.press('Enter')
    const shown = await Promise.race([
      seen,
      sleep((opts.seconds + 60) * 1000).then(() => {
        throw new Error(`the final token of the ${opts.rate} tok/s stream never showed`)
      }),
    ])
    const stream = await stopFrames(page)
    const profile = opts.profile ? await stopProfile(cdp) : null
    const after = await recordFrames(page, AFTER_MS)
    const record = await server.finished(final)
    if (profile) printProfile(`${opts.rate} tok/s stream`, profile)
    return {
      rate: opts.rate,
      idle,
      stream,
      after,
      server: record,
      lastTokenMs: shown.timeOrigin + shown.paintedAt - record.finalWrittenAt!,
      visible: shown.visible,
      profile,
    }
  } finally {
    await close()
  }
}
