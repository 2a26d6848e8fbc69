/**
 * Coalesces a turn's text and reasoning deltas into at most one message per interval
 * (16 ms: ≤ 60 per second, whatever the token rate), without reordering events of other
 * kinds: any other event flushes what is pending first, then goes out at once.
 */
import type {
  AgentEvent,
  ReasoningDeltaEvent,
  TextDeltaEvent,
} from '../../../src-preload/contract/events'

type Delta = TextDeltaEvent | ReasoningDeltaEvent

export class DeltaCoalescer {
  private pending: Delta[] = []
  private timer: NodeJS.Timeout | null = null

  constructor(
    private readonly out: (e: AgentEvent) => void,
    private readonly intervalMs = 16,
  ) {}

  push(e: AgentEvent): void {
    if (e.type === 'text_delta' || e.type === 'reasoning_delta') {
      const last = this.pending[this.pending.length - 1]
      if (last && last.type === e.type) last.text += e.text
      else this.pending.push({ ...e })
      this.timer ??= setTimeout(() => this.flush(), this.intervalMs)
      return
    }
    this.flush()
    this.out(e)
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    const pending = this.pending
    this.pending = []
    for (const d of pending) this.out(d)
  }
}
