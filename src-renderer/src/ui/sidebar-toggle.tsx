/**
 * The sidebar's switch ("Hide sidebar" / "Show sidebar", Ctrl/Cmd+B) and the window's width
 * that decides how the sidebar shows: beside the chat from 900 px, over it below.
 */
import { useSyncExternalStore, type JSX } from 'react'
import { useT } from '../i18n'
import { useNav } from '../state/context'

const NARROW = '(max-width: 899.98px)'

function subscribe(listener: () => void): () => void {
  const query = window.matchMedia?.(NARROW)
  query?.addEventListener?.('change', listener)
  return () => query?.removeEventListener?.('change', listener)
}

/** whether the window is narrower than 900 px (the sidebar then opens over the chat) */
export function useNarrow(): boolean {
  return useSyncExternalStore(subscribe, () => window.matchMedia?.(NARROW).matches ?? false)
}

/** whether the sidebar is on screen, for this width */
export function useSidebarShown(): boolean {
  const narrow = useNarrow()
  const hidden = useNav((s) => s.sidebarHidden)
  const overlay = useNav((s) => s.sidebarOverlay)
  return narrow ? overlay : !hidden
}

export function SidebarToggle(): JSX.Element {
  const t = useT()
  const narrow = useNarrow()
  const shown = useSidebarShown()
  const toggle = useNav((s) => s.toggleSidebar)
  return (
    <button
      type="button"
      className="action sidebar-toggle"
      aria-label={shown ? t('sidebar.hide') : t('sidebar.show')}
      aria-expanded={shown}
      aria-controls="sidebar"
      aria-keyshortcuts="Control+B Meta+B"
      title={`${shown ? t('sidebar.hide') : t('sidebar.show')} (Ctrl+B)`}
      onClick={() => toggle(narrow)}
    >
      <svg viewBox="0 0 16 16" width="16" height="16" aria-hidden="true" focusable="false">
        <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" fill="none" stroke="currentColor" />
        <line x1="6" y1="2.5" x2="6" y2="13.5" stroke="currentColor" />
      </svg>
    </button>
  )
}
