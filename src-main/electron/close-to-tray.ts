/**
 * Closing the main window: with "keep in tray" on, the window hides and Cairn stays in the
 * tray; off, Cairn quits. Not chosen yet (`desktop.closeToTray` null), the first close asks
 * once and remembers the answer (Settings › General changes it).
 */
import type { BrowserWindow, MessageBoxOptions, MessageBoxReturnValue } from 'electron'
import type { ShellText } from './shell-text'

export interface CloseToTrayDeps {
  /** the setting now: true keep, false quit, null ask */
  choice(): boolean | null
  remember(keep: boolean): void
  ask(win: BrowserWindow, options: MessageBoxOptions): Promise<MessageBoxReturnValue>
  text(): ShellText
  /** quitting for real (the app's own quit): the window closes */
  quitting(): boolean
  quit(): void
}

/** What closing the main window does, decided on its `close` event. */
export function keepInTrayOnClose(win: BrowserWindow, d: CloseToTrayDeps): void {
  let asking = false
  win.on('close', (event) => {
    if (d.quitting()) return
    const choice = d.choice()
    if (choice === false) {
      d.quit()
      return
    }
    event.preventDefault()
    if (choice === true) {
      win.hide()
      return
    }
    if (asking) return
    asking = true
    const text = d.text()
    void d
      .ask(win, {
        type: 'question',
        message: text.closeQuestion,
        detail: text.closeDetail,
        buttons: [text.closeKeep, text.closeQuit],
        defaultId: 0,
        cancelId: 0,
      })
      .then(({ response }) => {
        const keep = response === 0
        d.remember(keep)
        if (keep) win.hide()
        else d.quit()
      })
      .catch(() => win.hide())
      .finally(() => void (asking = false))
  })
}
