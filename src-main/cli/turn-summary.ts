import type { UsageEvent } from '../../src-preload/contract/events'

/**
 * The line the CLI prints on stderr when a turn ends: the tokens it used, how fast the model
 * wrote (output tokens over the time from each call's first token to its end, summed over
 * the turn's calls) and how long the first token took.
 */
export class TurnSummary {
  private input = 0
  private output = 0
  private estimated = false
  private ratedTokens = 0
  private generationSeconds = 0
  private firstTokenMs: number | null = null
  private calls = 0

  add(e: UsageEvent): void {
    this.calls++
    this.input = e.turnInputTokens
    this.output = e.turnOutputTokens
    this.estimated ||= e.estimated
    if (this.calls === 1) this.firstTokenMs = e.timeToFirstTokenMs
    if (e.tokensPerSecond !== null && e.tokensPerSecond > 0 && e.outputTokens > 0) {
      this.ratedTokens += e.outputTokens
      this.generationSeconds += e.outputTokens / e.tokensPerSecond
    }
  }

  /** the turn's rate: its rated output tokens over their generation time; null when unknown */
  get tokensPerSecond(): number | null {
    return this.generationSeconds > 0 ? this.ratedTokens / this.generationSeconds : null
  }

  /** null when no call reported usage */
  line(): string | null {
    if (this.calls === 0) return null
    const parts = [
      `${this.input} tokens in, ${this.output} out${this.estimated ? ' (estimated)' : ''}`,
    ]
    const rate = this.tokensPerSecond
    if (rate !== null) parts.push(`${rate.toFixed(1)} tokens/s`)
    if (this.firstTokenMs !== null) {
      parts.push(`first token after ${(this.firstTokenMs / 1000).toFixed(2)} s`)
    }
    return parts.join(' · ')
  }
}
