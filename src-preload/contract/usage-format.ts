/**
 * Plain functions with no imports, shared by the engine, the CLI and the window: how an
 * amount in US dollars is shown, and what a price and a budget may be (the zod schema of
 * `usage.ts` checks the same bounds when the settings are saved).
 */

/** a price's bounds, US dollars per million tokens */
export const MAX_PRICE_PER_MILLION = 100_000
/** a monthly budget's upper bound, US dollars */
export const MAX_MONTHLY_BUDGET = 1_000_000

/** a price per million tokens: a number from 0 to MAX_PRICE_PER_MILLION */
export function isPrice(n: number): boolean {
  return Number.isFinite(n) && n >= 0 && n <= MAX_PRICE_PER_MILLION
}

/**
 * US dollars as the window and the CLI show them: cents from a dollar up, more digits below
 * (an answer often costs a fraction of a cent), `<$0.0001` for less than that.
 */
export function formatUsd(usd: number): string {
  if (usd === 0) return '$0.00'
  if (usd < 0.0001) return '<$0.0001'
  if (usd < 0.01) return `$${usd.toFixed(4)}`
  if (usd < 1) return `$${usd.toFixed(3)}`
  return `$${usd.toFixed(2)}`
}
