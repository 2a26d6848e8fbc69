/**
 * The time limit of one tool call. It starts again whenever the tool reports progress, up
 * to a maximum in all; it stands still while the server waits for the user (an
 * elicitation), since a person's time to answer is not the tool's. It aborts `signal` with
 * a request-timeout error (the SDK then sends `notifications/cancelled`); the caller's own
 * abort (Stop) is passed on with its reason.
 */
import { SdkError, SdkErrorCode } from '@modelcontextprotocol/client'

/** what the SDK is given: our timer, not the SDK's, decides (setTimeout's largest delay) */
export const SDK_NO_TIMEOUT_MS = 2 ** 31 - 1

export class CallTimer {
  private readonly controller = new AbortController()
  private timer: NodeJS.Timeout | null = null
  private paused = 0
  /** running time spent before the current stretch */
  private spent = 0
  private stretchStart: number
  private readonly onOuterAbort: () => void

  constructor(
    private readonly timeoutMs: number,
    private readonly maxTotalMs: number,
    private readonly outer: AbortSignal,
    private readonly now: () => number = Date.now,
  ) {
    this.stretchStart = now()
    this.onOuterAbort = () => this.abort(outer.reason)
    if (outer.aborted) this.abort(outer.reason)
    else outer.addEventListener('abort', this.onOuterAbort, { once: true })
    this.arm()
  }

  get signal(): AbortSignal {
    return this.controller.signal
  }

  /** progress came: the limit starts again, unless the maximum in all is reached */
  reset(): void {
    if (this.paused === 0) this.arm()
  }

  /** the server waits for the user: the clock stands still until `resume` */
  pause(): void {
    if (this.paused++ === 0) {
      this.spent += this.now() - this.stretchStart
      this.clear()
    }
  }

  resume(): void {
    if (this.paused === 0) return
    if (--this.paused === 0) {
      this.stretchStart = this.now()
      this.arm()
    }
  }

  dispose(): void {
    this.clear()
    this.outer.removeEventListener('abort', this.onOuterAbort)
  }

  private arm(): void {
    this.clear()
    if (this.controller.signal.aborted) return
    const used = this.spent + (this.now() - this.stretchStart)
    const left = Math.max(0, this.maxTotalMs - used)
    const idle = Math.min(this.timeoutMs, left)
    const total = idle === left && left < this.timeoutMs
    this.timer = setTimeout(() => {
      this.abort(
        new SdkError(
          SdkErrorCode.RequestTimeout,
          total ? 'Maximum total timeout exceeded' : 'Request timed out',
          { timeout: total ? this.maxTotalMs : this.timeoutMs },
        ),
      )
    }, idle)
  }

  private clear(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private abort(reason: unknown): void {
    this.clear()
    if (!this.controller.signal.aborted) this.controller.abort(reason)
  }
}
