/**
 * Quick ask (the desktop app's small window, at `#/quick-ask`; browser mode shows the same
 * page): a question, its answer streamed here with the same conversation, composer and
 * approval dialog as the main window, and "Open in Cairn", which continues the chat in the
 * main window. Esc, with no answer running, hides the window.
 */
import { useEffect, type JSX } from 'react'
import { ApprovalDialog } from '../../features/approvals/ApprovalDialog'
import { ConversationView } from '../../features/chat/ConversationView'
import { Composer } from '../../features/composer/Composer'
import { ElicitationDialog } from '../../features/elicitation/ElicitationDialog'
import { useT } from '../../i18n'
import { call } from '../../platform/request'
import { useLive, usePlatform } from '../../state/context'
import { LinkGuardProvider } from '../../ui/markdown'
import { useTheme } from '../../ui/theme'
import './quick-ask.css'

/** Esc: stops the answer while one runs (the composer's own Esc), else hides the window. */
function useEscapeHides(): void {
  const { platform, live } = usePlatform()
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      const s = live.getState()
      if (s.approvals.length > 0) return
      if ((e.target as Element | null)?.closest?.('[role="dialog"]')) return
      e.preventDefault()
      if (s.currentId && s.running[s.currentId]) void s.stop()
      else if (platform.kind === 'desktop')
        void call(platform.bridge, 'desktop.hideQuickAsk', {}).catch(() => {})
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [platform, live])
}

export function QuickAskScreen(): JSX.Element {
  const { platform, live } = usePlatform()
  const t = useT()
  const sessionId = useLive((s) => s.currentId)
  const dialogOpen = useLive((s) => s.approvals.length > 0)
  useEscapeHides()
  // the theme is applied (and follows the system) where it is read, as the main window's header does
  useTheme()
  useEffect(() => {
    document.title = t('quickAsk.documentTitle')
  }, [t])
  const openInCairn = (): void => {
    if (!sessionId) return
    if (platform.kind === 'desktop') {
      void call(platform.bridge, 'desktop.openInMain', { sessionId })
        .then(() => live.getState().open(null))
        .catch(() => {})
      return
    }
    // browser mode: the same page becomes the main window, at this chat
    location.hash = `#/session/${sessionId}`
    location.reload()
  }
  return (
    <LinkGuardProvider openExternal={platform.openExternal}>
      <div className="quick-ask" inert={dialogOpen}>
        <header className="quick-ask-header">
          <h1>{t('quickAsk.title')}</h1>
          <button type="button" disabled={!sessionId} onClick={openInCairn}>
            {t('quickAsk.openInCairn')}
          </button>
        </header>
        <main className="chat">
          <ConversationView empty={<p className="quick-ask-hint meta">{t('quickAsk.hint')}</p>} />
          <div className="dock">
            <Composer />
          </div>
        </main>
      </div>
      <ApprovalDialog />
      <ElicitationDialog />
    </LinkGuardProvider>
  )
}
