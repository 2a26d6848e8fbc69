/** Restart schedule for a crashed server: 1 s doubling to 30 s, 5 tries. */
export const RESTART_TRIES = 5

export function restartDelayMs(attempt: number, baseMs = 1000, maxMs = 30_000): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1))
}
