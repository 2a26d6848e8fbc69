/**
 * The desktop shell around the main window, put together: the tray, Quick ask and its
 * global shortcut (taken at start from the settings), and what closing the main window
 * does. It is the engine's `DesktopShell` port (the `desktop.*` routes).
 */
import { app, dialog, type BrowserWindow } from 'electron'
import type { SettingsStore } from '../core/service-ports'
import type { DesktopShell } from '../services/handlers/handler-context'
import { keepInTrayOnClose } from './close-to-tray'
import { QUICK_ASK_HASH, QuickAsk, QuickAskShortcut, createQuickAskWindow } from './quick-ask'
import { systemShellText, type ShellText } from './shell-text'
import { installTray } from './tray'

export interface ShellDeps {
  settings: SettingsStore
  preload: string
  /** the page's address (`#/…` is added) */
  pageUrl: string
  iconPath: string
  /** loads our page into a window (an error page if it cannot) */
  load(win: BrowserWindow, url: string): void
  /** feeds a window's page the engine's events */
  events(win: BrowserWindow): void
  /** the main window (made again if it was closed), at `hash` when given */
  mainWindow(hash: string | null): BrowserWindow
  warn(message: string): void
}

export class Shell implements DesktopShell {
  readonly quickAsk: QuickAsk
  private readonly shortcut: QuickAskShortcut
  private quitting = false

  constructor(private readonly d: ShellDeps) {
    this.quickAsk = new QuickAsk(
      () =>
        createQuickAskWindow({
          preload: d.preload,
          title: this.text().quickAskTitle,
          quitting: () => this.quitting,
        }),
      (win) => {
        d.events(win)
        d.load(win, `${d.pageUrl}${QUICK_ASK_HASH}`)
      },
    )
    this.shortcut = new QuickAskShortcut(() => this.quickAsk.toggle())
    app.on('before-quit', () => void (this.quitting = true))
    app.on('will-quit', () => this.shortcut.release())
  }

  /** the words of the tray and the dialogs, in the system's language */
  text(): ShellText {
    return systemShellText(app.getPreferredSystemLanguages())
  }

  /** once ready: the tray, and the shortcut the settings name (a warning when it is taken) */
  start(): void {
    installTray(this.d.iconPath, this.text(), {
      newChat: () => this.showMain('#/new'),
      quickAsk: () => this.quickAsk.show(),
      show: () => this.showMain(null),
      quit: () => app.quit(),
    })
    const shortcut = this.d.settings.get().desktop.quickAskShortcut
    if (shortcut !== null && !this.shortcut.set(shortcut))
      this.d.warn(`Another app holds ${shortcut}: Quick ask has no shortcut (Settings › General).`)
  }

  /** what closing this main window does (hide to the tray, quit, or ask once) */
  watchClose(win: BrowserWindow): void {
    keepInTrayOnClose(win, {
      choice: () => this.d.settings.get().desktop.closeToTray,
      remember: (keep) => {
        try {
          this.d.settings.updateSync((s) => void (s.desktop.closeToTray = keep))
        } catch (e) {
          this.d.warn(`The choice to keep Cairn in the tray was not saved: ${(e as Error).message}`)
        }
      },
      ask: (w, options) => dialog.showMessageBox(w, options),
      text: () => this.text(),
      quitting: () => this.quitting,
      quit: () => app.quit(),
    })
  }

  /** shows the main window (made again if closed), at `hash` when given */
  private showMain(hash: string | null): BrowserWindow {
    const win = this.d.mainWindow(hash)
    if (win.isMinimized()) win.restore()
    win.show()
    win.focus()
    return win
  }

  setQuickAskShortcut(shortcut: string | null): boolean {
    return this.shortcut.set(shortcut)
  }

  quickAskRegistered(): boolean {
    return this.shortcut.registered()
  }

  openInMain(sessionId: string): boolean {
    this.quickAsk.hide()
    this.showMain(`#/session/${encodeURIComponent(sessionId)}`)
    return true
  }

  hideQuickAsk(): boolean {
    return this.quickAsk.hide()
  }
}
