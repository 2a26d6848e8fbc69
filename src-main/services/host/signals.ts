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

/**
 * SIGINT (exit code 130) and SIGTERM (143) stop a host in two steps: the first calls
 * `stop` with the code; one that comes while it is stopping (`stopping()`, by default once
 * `stop` has been called) ends the process at once with its code, after `atOnce`.
 * `interrupt` does what SIGINT does (Ctrl-C read by a prompt on the terminal).
 */
export function stopOnSignals(
  stop: (code: number) => void,
  { stopping, atOnce }: { stopping?: () => boolean; atOnce?: () => void } = {},
): { release: () => void; interrupt: () => void } {
  let stopped = false
  const onSignal = (code: number) => (): void => {
    if (stopping ? stopping() : stopped) {
      atOnce?.()
      process.exit(code)
    }
    stopped = true
    stop(code)
  }
  const interrupt = onSignal(130)
  return { release: handleStopSignals({ SIGINT: interrupt, SIGTERM: onSignal(143) }), interrupt }
}
