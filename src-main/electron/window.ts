/**
 * The main window: locked-down webPreferences, its size and position remembered in the
 * settings' `window` key (restored only when it is still on a visible display), and an
 * error page when our page cannot be loaded (the window would otherwise stay hidden).
 */
import { BrowserWindow, screen } from 'electron'
import type { Rectangle } from 'electron'
import type { WindowBounds } from '../adapters/settings/schema'

export const DEFAULT_SIZE = { width: 1100, height: 760 }
const MIN_SIZE = { minWidth: 480, minHeight: 360 }
/** how much of the window must lie on a display for the saved bounds to be used */
const MIN_VISIBLE = { width: 120, height: 60 }

function overlap(a: Rectangle, b: Rectangle): { width: number; height: number } {
  return {
    width: Math.max(0, Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x)),
    height: Math.max(0, Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y)),
  }
}

const finite = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n)

/**
 * The saved bounds to open with, or only a saved size (centred by Electron) when the
 * position is missing or off every display's work area (a monitor was unplugged).
 */
export function restoreBounds(
  saved: WindowBounds | null | undefined,
  workAreas: readonly Rectangle[],
): Partial<Rectangle> {
  if (!saved) return { ...DEFAULT_SIZE }
  const width = finite(saved.width) && saved.width >= 200 ? Math.round(saved.width) : undefined
  const height = finite(saved.height) && saved.height >= 150 ? Math.round(saved.height) : undefined
  const size = { width: width ?? DEFAULT_SIZE.width, height: height ?? DEFAULT_SIZE.height }
  if (!finite(saved.x) || !finite(saved.y)) return size
  const rect = { x: Math.round(saved.x), y: Math.round(saved.y), ...size }
  const visible = workAreas.some((area) => {
    const o = overlap(rect, area)
    return o.width >= MIN_VISIBLE.width && o.height >= MIN_VISIBLE.height
  })
  return visible ? rect : size
}

export interface MainWindowOptions {
  preload: string
  saved: WindowBounds | null | undefined
  /** called with the window's normal (not maximized) bounds when it closes */
  saveBounds: (bounds: WindowBounds) => void
}

export function createMainWindow(opts: MainWindowOptions): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((d) => d.workArea)
  const win = new BrowserWindow({
    ...restoreBounds(opts.saved, workAreas),
    ...MIN_SIZE,
    show: false,
    title: 'Cairn',
    // written out here (not built elsewhere) so that electronegativity checks them
    webPreferences: {
      preload: opts.preload,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
    },
  })
  win.once('ready-to-show', () => win.show())
  win.on('close', () => saveWindowBounds(win, opts.saveBounds))
  return win
}

/** Saves the window's normal (not maximized) bounds; never in the way of closing. */
export function saveWindowBounds(win: BrowserWindow, save: (b: WindowBounds) => void): void {
  try {
    if (win.isDestroyed()) return
    const { x, y, width, height } = win.getNormalBounds()
    save({ x, y, width, height })
  } catch {
    // remembering the size is a nicety
  }
}

/** Chromium's "navigation aborted" (a newer load replaced this one): not a failure. */
const ERR_ABORTED = -3

const escapeHtml = (text: string): string =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  )

/**
 * The page shown when ours does not load: a data: URL (it needs nothing that may be what
 * failed), no script at all (its own CSP says so), and a link that loads ours again.
 */
export function loadErrorPage(reason: string, url: string): string {
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Cairn could not open its window</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:40em;margin:4em auto;padding:0 1em;color:#222;background:#fafafa}
@media (prefers-color-scheme:dark){body{color:#ddd;background:#1e1e1e}a{color:#8ab4f8}}
code{word-break:break-all}</style></head>
<body><h1>Cairn could not open its window</h1>
<p>The page <code>${escapeHtml(url)}</code> did not load: ${escapeHtml(reason)}</p>
<p><a href="${escapeHtml(url)}">Try again</a>. If this keeps happening, reinstall Cairn, or
start it from a terminal to see its log.</p></body></html>`
  return `data:text/html;charset=utf-8,${encodeURIComponent(html)}`
}

/**
 * Loads our page into the window. When the main frame fails to load (`did-fail-load`, or
 * `loadURL` rejects), says why in the log and shows the window with `loadErrorPage`
 * instead of leaving it hidden (it is shown only on `ready-to-show`). Never rejects.
 */
export async function loadMainPage(
  win: BrowserWindow,
  url: string,
  warn: (message: string) => void,
): Promise<void> {
  let shown = false
  const fail = (reason: string): void => {
    if (shown || win.isDestroyed()) return
    shown = true
    warn(`Could not load the window (${url}): ${reason}`)
    win.loadURL(loadErrorPage(reason, url)).catch(() => {})
    win.show()
  }
  win.webContents.on('did-fail-load', (_event, code, description, _url, isMainFrame) => {
    if (isMainFrame && code !== ERR_ABORTED) fail(`${description} (${code})`)
  })
  try {
    await win.loadURL(url)
  } catch (e) {
    const errno = (e as { errno?: unknown } | null)?.errno
    if (errno !== ERR_ABORTED) fail(e instanceof Error ? e.message : String(e))
  }
}
