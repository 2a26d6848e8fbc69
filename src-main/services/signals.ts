/**
 * SIGINT and SIGTERM for a host that stops cleanly (the CLI ends its turn, browser mode
 * shuts its server down). The engine loads no library that hooks these signals itself:
 * conf (whose `atomically` → `when-exit` re-raises them to kill the process) is loaded
 * only by the desktop shell, through electron-store. `tests/cli/signals.test.ts` holds
 * the rest of the engine to that.
 */
export function handleStopSignals(
  handlers: Partial<Record<'SIGINT' | 'SIGTERM', () => void>>,
): () => void {
  const entries = Object.entries(handlers) as ['SIGINT' | 'SIGTERM', () => void][]
  for (const [signal, handler] of entries) process.on(signal, handler)
  return () => {
    for (const [signal, handler] of entries) process.off(signal, handler)
  }
}
