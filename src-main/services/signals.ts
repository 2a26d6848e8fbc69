/**
 * Some dependencies (conf → atomically → when-exit) hook SIGINT and SIGTERM when they are
 * imported and then re-raise the signal, which kills the process before a turn can stop
 * cleanly. A host that handles these signals itself takes them over: it drops the
 * listeners installed by libraries, then installs its own. Temp-file clean-up of those
 * libraries still runs on `exit`.
 */
export function takeOverSignals(
  handlers: Partial<Record<'SIGINT' | 'SIGTERM', () => void>>,
): () => void {
  const entries = Object.entries(handlers) as ['SIGINT' | 'SIGTERM', () => void][]
  for (const [signal, handler] of entries) {
    process.removeAllListeners(signal)
    process.on(signal, handler)
  }
  return () => {
    for (const [signal, handler] of entries) process.off(signal, handler)
  }
}
