/**
 * One Cairn per data directory (a second launch focuses the first window), and a clean
 * quit: running turns stop with their partial text saved and the MCP servers shut down
 * before the process exits.
 */
import type { App, BrowserWindow } from 'electron'

export const SHUTDOWN_TIMEOUT_MS = 10_000

/**
 * Takes the single-instance lock. False: another Cairn has it (and has been told to show
 * itself); this process should quit.
 */
export function takeSingleInstanceLock(
  app: Pick<App, 'requestSingleInstanceLock' | 'on'>,
  mainWindow: () => BrowserWindow | null,
): boolean {
  if (!app.requestSingleInstanceLock()) return false
  app.on('second-instance', () => {
    const win = mainWindow()
    if (!win || win.isDestroyed()) return
    if (win.isMinimized()) win.restore()
    win.show()
    win.focus()
  })
  return true
}

/**
 * On the first `before-quit`: hold the quit, shut the host down (bounded by `timeoutMs`),
 * then exit. Later quit requests while that runs are held too; the shutdown runs once.
 */
export function quitCleanly(
  app: Pick<App, 'on' | 'exit'>,
  shutdown: () => Promise<void>,
  opts: { timeoutMs?: number; onError?: (e: unknown) => void } = {},
): void {
  let started = false
  app.on('before-quit', (event) => {
    event.preventDefault()
    if (started) return
    started = true
    let timer: NodeJS.Timeout | undefined
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        opts.onError?.(new Error('Shutting down took too long; quitting anyway.'))
        resolve()
      }, opts.timeoutMs ?? SHUTDOWN_TIMEOUT_MS)
    })
    void Promise.race([shutdown().catch((e: unknown) => opts.onError?.(e)), timeout]).finally(
      () => {
        clearTimeout(timer)
        app.exit(0)
      },
    )
  })
}

/** Ctrl-C or a kill in a terminal quits the same clean way as the menu. */
export function quitOnSignals(app: Pick<App, 'quit'>): void {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => app.quit())
}
