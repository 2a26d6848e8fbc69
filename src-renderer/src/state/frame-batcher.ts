/**
 * Collects items (agent events) and hands them over at most once per animation frame, so
 * that a thousand tokens a second cost one store update per frame, not one per token.
 * A hidden page gets no frames: a timer takes over so the queue never grows unbounded.
 */
export interface FrameScheduler {
  request(cb: () => void): () => void
}

export const animationFrames: FrameScheduler = {
  request(cb) {
    let done = false
    const run = (): void => {
      if (done) return
      done = true
      cb()
    }
    const frame = requestAnimationFrame(run)
    // no frames while the page is hidden
    const timer = setTimeout(run, 250)
    return () => {
      done = true
      cancelAnimationFrame(frame)
      clearTimeout(timer)
    }
  },
}

export class FrameBatcher<T> {
  private queue: T[] = []
  private scheduled = false
  private cancel: (() => void) | null = null

  constructor(
    private readonly flushTo: (items: T[]) => void,
    private readonly scheduler: FrameScheduler = animationFrames,
  ) {}

  push(item: T): void {
    this.queue.push(item)
    if (this.scheduled) return
    this.scheduled = true
    // (a scheduler may run the flush at once, before `request` returns)
    this.cancel = this.scheduler.request(() => this.flush())
  }

  /** hands over what is queued now */
  flush(): void {
    this.cancel?.()
    this.cancel = null
    this.scheduled = false
    if (this.queue.length === 0) return
    const items = this.queue
    this.queue = []
    this.flushTo(items)
  }
}
