/**
 * Fires when nothing happened for `ms`. `touch()` is called for every chunk, so it only stores
 * a timestamp; the timer re-arms itself for the remaining time instead of being reset per chunk.
 */
export class IdleWatchdog {
  private last: number
  private timer: ReturnType<typeof setTimeout> | null
  fired = false

  constructor(
    private readonly ms: number,
    private readonly onIdle: () => void,
  ) {
    this.last = performance.now()
    this.timer = this.arm(ms)
  }

  touch(): void {
    this.last = performance.now()
  }

  stop(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private arm(ms: number): ReturnType<typeof setTimeout> {
    const t = setTimeout(this.check, ms)
    t.unref?.()
    return t
  }

  private readonly check = (): void => {
    if (this.timer === null) return
    const idle = performance.now() - this.last
    if (idle >= this.ms - 1) {
      this.timer = null
      this.fired = true
      this.onIdle()
    } else {
      this.timer = this.arm(Math.ceil(this.ms - idle))
    }
  }
}
