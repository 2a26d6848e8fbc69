/**
 * The window's keyboard shortcuts: Ctrl/Cmd+K search, Ctrl/Cmd+N new chat, Ctrl/Cmd+,
 * settings, Ctrl/Cmd+B hides or shows the sidebar (listed by `/help`, composer/commands.ts). Not while a dialog is open. (In browser mode, the browser may keep Ctrl+N for
 * itself: `/new` does the same.)
 */
import { useEffect } from 'react'
import { usePlatform } from '../../state/context'
import { useNarrow } from '../../ui/sidebar-toggle'
import { startNewChat } from './start'

export function useShortcuts(): void {
  const env = usePlatform()
  const narrow = useNarrow()
  useEffect(() => {
    const onKey = (e: KeyboardEvent): void => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey || e.shiftKey || e.defaultPrevented) return
      const key = e.key.toLowerCase()
      if (key !== 'k' && key !== 'n' && key !== ',' && key !== 'b') return
      if (env.live.getState().approvals.length > 0) return
      if ((e.target as Element | null)?.closest?.('[role="dialog"]')) return
      e.preventDefault()
      if (key === 'k') env.nav.getState().focusSearch()
      else if (key === 'b') env.nav.getState().toggleSidebar(narrow)
      else if (key === 'n') startNewChat(env)
      else env.nav.getState().showSettings()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [env, narrow])
}
