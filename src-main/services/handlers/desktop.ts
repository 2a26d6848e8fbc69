/**
 * The desktop shell's routes: the Quick ask shortcut (taken before it is saved, so a
 * shortcut another app holds is refused and the one before stays), whether closing the
 * window keeps Cairn in the tray, and Quick ask's "Open in Cairn". Other hosts have no
 * shell: `unavailable`.
 */
import {
  DEFAULT_QUICK_ASK_SHORTCUT,
  type DesktopStatus,
} from '../../../src-preload/contract/desktop'
import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import type { DesktopShell, HandlerContext } from './handler-context'

type DesktopRoutes =
  | 'desktop.status'
  | 'desktop.setQuickAskShortcut'
  | 'desktop.setCloseToTray'
  | 'desktop.openInMain'
  | 'desktop.hideQuickAsk'

/** another app holds the shortcut: Cairn could not take it */
export class ShortcutTakenError extends ExpectedError<'shortcut_taken'> {
  constructor(shortcut: string) {
    super(
      'shortcut_taken',
      `Another app already uses ${shortcut}, so Cairn cannot take it. Choose another shortcut, or free it in that app.`,
      { details: { shortcut } },
    )
  }
}

export function desktopHandlers(c: HandlerContext): Pick<Handlers, DesktopRoutes> {
  const shell = (): DesktopShell => {
    if (!c.desktop)
      throw new ExpectedError('unavailable', 'Only the desktop app has a tray and Quick ask.')
    return c.desktop
  }
  const status = (s: DesktopShell): DesktopStatus => {
    const { desktop } = c.app.settings.get()
    return {
      quickAsk: {
        shortcut: desktop.quickAskShortcut,
        registered: s.quickAskRegistered(),
        defaultShortcut: DEFAULT_QUICK_ASK_SHORTCUT,
      },
      closeToTray: desktop.closeToTray,
    }
  }
  return {
    'desktop.status': async () => status(shell()),
    'desktop.setQuickAskShortcut': async ({ shortcut }) => {
      const s = shell()
      const before = c.app.settings.get().desktop.quickAskShortcut
      if (!s.setQuickAskShortcut(shortcut)) {
        s.setQuickAskShortcut(before)
        throw new ShortcutTakenError(shortcut ?? '')
      }
      await c.app.settings.update((all) => void (all.desktop.quickAskShortcut = shortcut))
      return status(s)
    },
    'desktop.setCloseToTray': async ({ closeToTray }) => {
      const s = shell()
      await c.app.settings.update((all) => void (all.desktop.closeToTray = closeToTray))
      return status(s)
    },
    'desktop.openInMain': async ({ sessionId }) => {
      if (!c.app.store.getSession(sessionId))
        throw new ExpectedError('not_found', `There is no chat ${sessionId}.`)
      return { opened: shell().openInMain(sessionId) }
    },
    'desktop.hideQuickAsk': async () => ({ hidden: shell().hideQuickAsk() }),
  }
}
