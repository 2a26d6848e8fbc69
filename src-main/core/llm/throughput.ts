/**
 * How fast a model wrote: output tokens over the generation time, which runs from the
 * first token to the end of the stream (the wait before the first token is not counted).
 */
export function tokensPerSecond(
  outputTokens: number,
  timeToFirstTokenMs: number | null | undefined,
  latencyMs: number | null | undefined,
): number | null {
  if (timeToFirstTokenMs == null || latencyMs == null || outputTokens <= 0) return null
  const generationMs = latencyMs - timeToFirstTokenMs
  if (generationMs <= 0) return null
  return (outputTokens * 1000) / generationMs
}
