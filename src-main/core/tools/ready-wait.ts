import type { ToolSource } from './tool-source'

/**
 * Waits until every source is ready or has failed, or `signal` aborts. Each source waits on
 * a signal of its own, so one signal never carries a listener per server (with eleven or
 * more servers Node would warn about a possible listener leak).
 */
export async function waitAllReady(
  sources: readonly Pick<ToolSource, 'whenReady'>[],
  signal: AbortSignal,
): Promise<void> {
  const own = sources.map(() => new AbortController())
  const abortAll = (): void => {
    for (const c of own) c.abort()
  }
  if (signal.aborted) abortAll()
  else signal.addEventListener('abort', abortAll, { once: true })
  try {
    await Promise.all(sources.map((s, i) => s.whenReady(own[i]!.signal)))
  } finally {
    signal.removeEventListener('abort', abortAll)
  }
}
