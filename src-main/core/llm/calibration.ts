/**
 * Characters per token, learned per model: each request whose input tokens the server
 * counted moves the model's figure a little (an exponential moving average), so one odd
 * request does not swing it. The estimate then sizes requests against the real window.
 */
import { CHARS_PER_TOKEN } from './estimate'

/** how far one observation moves the average */
export const EMA_WEIGHT = 0.2
/** a request this small says more about fixed overhead than about the tokenizer */
export const MIN_SAMPLE_CHARS = 2_000
/** sane bounds: no tokenizer packs more, or fewer, characters into a token */
export const MIN_CHARS_PER_TOKEN = 1
export const MAX_CHARS_PER_TOKEN = 8

/** The new average after one request of `chars` characters counted as `tokens` tokens. */
export function nextCharsPerToken(
  previous: number | null,
  chars: number,
  tokens: number,
): number | null {
  if (chars < MIN_SAMPLE_CHARS || !(tokens > 0)) return previous
  const observed = Math.min(MAX_CHARS_PER_TOKEN, Math.max(MIN_CHARS_PER_TOKEN, chars / tokens))
  return previous === null ? observed : previous + EMA_WEIGHT * (observed - previous)
}

/**
 * A window of `tokens` real tokens, expressed in the app's estimate (characters / 4): a
 * model whose tokens hold 3 characters fills its window with 3/4 of the estimate's tokens.
 */
export function windowInEstimateTokens(tokens: number, charsPerToken: number | null): number {
  if (charsPerToken === null || tokens <= 0) return tokens
  return Math.floor((tokens * charsPerToken) / CHARS_PER_TOKEN)
}
