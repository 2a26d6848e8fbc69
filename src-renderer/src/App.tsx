import { useEffect, type JSX } from 'react'
import { ApprovalDialog } from './features/approvals/ApprovalDialog'
import { ElicitationDialog } from './features/elicitation/ElicitationDialog'
import { LinkGuardProvider } from './ui/markdown'
import { Sidebar } from './features/sessions/Sidebar'
import { useShortcuts } from './features/sessions/use-shortcuts'
import { useNarrow } from './ui/sidebar-toggle'
import { ChatScreen } from './screens/chat/ChatScreen'
import { SettingsScreen } from './screens/settings/SettingsScreen'
import { usePlatform, useLive, useNav } from './state/context'
import { ConnectionBanner } from './ui/ConnectionBanner'
import { DamagedDatabaseBanner } from './ui/DamagedDatabaseBanner'

/** Esc stops the running answer from anywhere but a dialog or an editor that uses it. */
function useEscapeStops(): void {
  const { live } = usePlatform()
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      const s = live.getState()
      if (s.approvals.length > 0 || !s.currentId || !s.running[s.currentId]) return
      if ((e.target as Element | null)?.closest?.('[role="dialog"]')) return
      e.preventDefault()
      void s.stop()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [live])
}

export function App(): JSX.Element {
  const { platform } = usePlatform()
  const dialogOpen = useLive((s) => s.approvals.length > 0)
  const view = useNav((s) => s.view)
  // the sidebar over a narrow window is modal: the chat behind it waits
  const narrow = useNarrow()
  const overlay = useNav((s) => s.sidebarOverlay) && narrow
  useEscapeStops()
  useShortcuts()
  return (
    <LinkGuardProvider openExternal={platform.openExternal}>
      <div className="app" inert={dialogOpen}>
        <ConnectionBanner />
        <DamagedDatabaseBanner />
        <div className="frame">
          <Sidebar />
          <div className="pane" inert={overlay}>
            {view === 'settings' ? <SettingsScreen /> : <ChatScreen />}
          </div>
        </div>
      </div>
      <ApprovalDialog />
      <ElicitationDialog />
    </LinkGuardProvider>
  )
}
