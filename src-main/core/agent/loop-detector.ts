import { canonicalJson } from './canonical-json'

/**
 * Spots a model that repeats itself within a turn: the same tool with the same
 * (canonicalized) arguments `threshold` times in a row, or a cycle of calls
 * (A,B,A,B,…) repeated `threshold` times. The same tool with other arguments is progress,
 * not a loop.
 */
export class LoopDetector {
  private readonly calls: string[] = []
  private warnings = 0

  constructor(
    private readonly threshold: number,
    private readonly maxWarnings: number,
    private readonly maxCycle = 4,
  ) {}

  /**
   * Records a call that is about to run and says what to do with it: `ok`, `warn` (run
   * it and tell the model it is repeating itself) or `stop` (the warnings were used up).
   */
  record(name: string, args: unknown): { verdict: 'ok' | 'warn' | 'stop'; count: number } {
    this.calls.push(`${name}\u0000${canonicalJson(args)}`)
    const count = this.repetitions()
    if (count < this.threshold) return { verdict: 'ok', count }
    if (this.warnings >= this.maxWarnings) return { verdict: 'stop', count }
    this.warnings++
    return { verdict: 'warn', count }
  }

  get warningCount(): number {
    return this.warnings
  }

  /** How many times the longest repeating tail pattern (period 1…maxCycle) occurs in a row. */
  private repetitions(): number {
    let best = 1
    const n = this.calls.length
    for (let period = 1; period <= this.maxCycle && period * 2 <= n; period++) {
      if (period > 1 && this.isUniform(n - period, n)) continue // A,A is period 1, not a cycle
      let reps = 1
      while ((reps + 1) * period <= n && this.same(n - period, n - (reps + 1) * period, period)) {
        reps++
      }
      if (reps > best) best = reps
    }
    return best
  }

  private same(a: number, b: number, len: number): boolean {
    for (let i = 0; i < len; i++) if (this.calls[a + i] !== this.calls[b + i]) return false
    return true
  }

  private isUniform(from: number, to: number): boolean {
    for (let i = from + 1; i < to; i++) if (this.calls[i] !== this.calls[from]) return false
    return true
  }
}

export function loopWarningText(name: string, count: number, stopping: boolean): string {
  return stopping
    ? `[Cairn] The turn was stopped: ${name} was called with the same arguments ${count} times in a row.`
    : `[Cairn] You have called ${name} with the same arguments ${count} times in a row and are ` +
        `repeating yourself. The result will not change. Use the results you already have, ` +
        `try a different approach, or answer the user.`
}
