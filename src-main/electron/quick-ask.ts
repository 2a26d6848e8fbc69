/**
 * Quick ask: a small window that stays on top, opened from anywhere by a global shortcut
 * (or the tray), with the same page, preload and locked-down webPreferences as the main
 * window, at `#/quick-ask`. The shortcut opens it, or hides it when it has the focus; Esc
 * and "Open in Cairn" hide it (it is kept, so the next open is instant).
 */
import { BrowserWindow, globalShortcut } from 'electron'

export const QUICK_ASK_SIZE = { width: 640, height: 440 }
export const QUICK_ASK_HASH = '#/quick-ask'

/** `quitting`: true once the app quits, when the window closes for real */
export function createQuickAskWindow(opts: {
  preload: string
  title: string
  quitting: () => boolean
}): BrowserWindow {
  const win = new BrowserWindow({
    ...QUICK_ASK_SIZE,
    minWidth: 420,
    minHeight: 260,
    show: false,
    title: opts.title,
    alwaysOnTop: true,
    skipTaskbar: true,
    fullscreenable: false,
    minimizable: false,
    maximizable: false,
    // written out here (not built elsewhere) so that electronegativity checks them: the
    // same as the main window's (window.ts)
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
  // closing it (the window's close button) hides it; only quitting destroys it
  win.on('close', (event) => {
    if (opts.quitting()) return
    event.preventDefault()
    win.hide()
  })
  return win
}

/** The Quick ask window, made when first asked for. */
export class QuickAsk {
  private win: BrowserWindow | null = null

  constructor(
    private readonly make: () => BrowserWindow,
    /** loads the page into a new window */
    private readonly load: (win: BrowserWindow) => void,
  ) {}

  /** shows it and gives it the focus (made and loaded the first time) */
  show(): void {
    const win = this.window()
    win.show()
    win.focus()
  }

  /** the shortcut: hides it when it has the focus, else shows it */
  toggle(): void {
    if (this.win && !this.win.isDestroyed() && this.win.isVisible() && this.win.isFocused()) {
      this.win.hide()
      return
    }
    this.show()
  }

  hide(): boolean {
    if (!this.win || this.win.isDestroyed() || !this.win.isVisible()) return false
    this.win.hide()
    return true
  }

  private window(): BrowserWindow {
    if (this.win && !this.win.isDestroyed()) return this.win
    const win = this.make()
    this.win = win
    win.on('closed', () => {
      if (this.win === win) this.win = null
    })
    this.load(win)
    return win
  }
}

/** The global shortcut that opens Quick ask: one at a time, let go of when replaced. */
export class QuickAskShortcut {
  private held: string | null = null

  constructor(private readonly onPress: () => void) {}

  /** takes `accelerator` (null: none), letting go of the one before; false: another app holds it */
  set(accelerator: string | null): boolean {
    if (accelerator === this.held) return accelerator === null || this.registered()
    if (this.held !== null) globalShortcut.unregister(this.held)
    this.held = null
    if (accelerator === null) return true
    let ok = false
    try {
      ok = globalShortcut.register(accelerator, this.onPress)
    } catch {
      // an accelerator Electron cannot parse: the contract's check should have refused it
      ok = false
    }
    if (ok) this.held = accelerator
    return ok
  }

  registered(): boolean {
    return this.held !== null && globalShortcut.isRegistered(this.held)
  }

  /** lets go of it (quitting) */
  release(): void {
    this.set(null)
  }
}
