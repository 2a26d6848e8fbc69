/**
 * The sessions sidebar: New chat, Settings, a search box, and either the list of chats or,
 * while something is typed, the search results. Deleting a chat can be undone for a few
 * seconds (see use-pending-delete.ts). Row actions, search and the list are in the files
 * beside this one.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type JSX } from 'react'
import type { SearchHit, SessionRecord } from '../../../../src-preload/contract/dto'
import { useT } from '../../i18n'
import { useErrorText } from '../../ui/error-text'
import { useLive, useNav, usePlatform } from '../../state/context'
import { ConfirmDeleteDialog } from '../../ui/ConfirmDeleteDialog'
import { useNarrow, useSidebarShown } from '../../ui/sidebar-toggle'
import { groupHits } from './group-hits'
import { SearchBox } from './SearchBox'
import { SearchResults } from './SearchResults'
import { flattenPages, useSearchHits, useSessionList } from './session-queries'
import { SessionList } from './SessionList'
import { SidebarToasts } from './SidebarToasts'
import { startNewChat, useReopenLast } from './start'
import { useDebounced } from '../../ui/use-debounced'
import { usePendingDelete } from './use-pending-delete'
import { useRowCallbacks } from './use-row-callbacks'
import './sidebar.css'

/** typing waits this long for a pause before searching */
const DEBOUNCE_MS = 150

export function Sidebar(): JSX.Element {
  const env = usePlatform()
  const currentId = useLive((s) => s.currentId)
  const running = useLive((s) => s.running)
  const view = useNav((s) => s.view)
  const focusTick = useNav((s) => s.searchFocusTick)

  const list = useSessionList()
  const t = useT()
  const errorText = useErrorText()
  const [text, setText] = useState('')
  const query = useDebounced(text.trim(), DEBOUNCE_MS)
  const search = useSearchHits(query)
  const searchBox = useRef<HTMLInputElement>(null)
  const deletes = usePendingDelete()
  const [confirm, setConfirm] = useState<SessionRecord | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [exported, setExported] = useState<string | null>(null)
  const callbacks = useRowCallbacks({
    notice: setNotice,
    exported: setExported,
    askDelete: setConfirm,
  })

  useReopenLast(list.data?.pages[0]?.sessions)
  const overlay = useSidebarOverlay()

  useEffect(() => {
    if (focusTick === 0) return
    searchBox.current?.focus()
    searchBox.current?.select()
  }, [focusTick])

  const hidden = deletes.pending?.id ?? null
  const sessions = useMemo(() => {
    const all = flattenPages(list.data?.pages ?? [])
    return hidden ? all.filter((s) => s.id !== hidden) : all
  }, [list.data, hidden])
  const groups = useMemo(() => {
    const hits = search.data ?? []
    return groupHits(hidden ? hits.filter((h) => h.sessionId !== hidden) : hits)
  }, [search.data, hidden])

  const choose = useCallback(
    (sessionId: string, hit: SearchHit | null) => {
      const nav = env.nav.getState()
      nav.setTarget(hit?.messageId ? { sessionId, messageId: hit.messageId } : null)
      nav.showChat()
      env.live.getState().open(sessionId)
    },
    [env],
  )

  return (
    <>
      {overlay.open ? (
        <div className="sidebar-backdrop" aria-hidden="true" onClick={overlay.close} />
      ) : null}
      <section
        id="sidebar"
        className="sidebar"
        aria-label={t('sidebar.sessions')}
        hidden={!overlay.shown}
      >
        <SidebarActions />
        <SearchBox inputRef={searchBox} text={text} setText={setText} />
        {text.trim() !== '' ? (
          <SearchResults
            groups={groups}
            pending={query !== text.trim() || search.isFetching}
            error={search.isError ? errorText(search.error) : null}
            onChoose={choose}
            onLeave={() => searchBox.current?.focus()}
          />
        ) : list.isError ? (
          <div className="sidebar-note" role="alert">
            <p>{t('sidebar.loadFailed', { error: errorText(list.error) })}</p>
            <button type="button" onClick={() => void list.refetch()}>
              {t('common.tryAgain')}
            </button>
          </div>
        ) : (
          <SessionList
            sessions={sessions}
            currentId={view === 'chat' ? currentId : null}
            running={running}
            callbacks={callbacks}
            hasMore={list.hasNextPage}
            loadingMore={list.isFetchingNextPage}
            loadMore={() => void list.fetchNextPage()}
          />
        )}
        <SidebarToasts
          deletes={deletes}
          exported={exported}
          dismissExported={() => setExported(null)}
          notice={notice}
          dismissNotice={() => setNotice(null)}
        />
        <ConfirmDeleteDialog
          open={confirm !== null}
          title={t('sidebar.deleteTitle')}
          onCancel={() => setConfirm(null)}
          onConfirm={() => {
            if (confirm) deletes.remove({ id: confirm.id, title: confirm.title })
            setConfirm(null)
          }}
        >
          {t('sidebar.deleteAbout', { title: confirm?.title || t('chat.untitled') })}
        </ConfirmDeleteDialog>
      </section>
    </>
  )
}

/**
 * Below 900 px the sidebar opens over the chat: a click beside it or Esc closes it, and so
 * does opening a chat or the settings (nav-store.ts).
 */
function useSidebarOverlay(): { shown: boolean; open: boolean; close: () => void } {
  const env = usePlatform()
  const narrow = useNarrow()
  const shown = useSidebarShown()
  const currentId = useLive((s) => s.currentId)
  const close = useCallback(() => env.nav.getState().closeSidebarOverlay(), [env])
  const open = narrow && shown
  useEffect(() => {
    close()
  }, [currentId, close])
  useEffect(() => {
    if (!open) return
    const onKey = (e: KeyboardEvent): void => {
      if (e.key !== 'Escape' || e.defaultPrevented) return
      if ((e.target as Element | null)?.closest?.('[role="dialog"]')) return
      e.preventDefault()
      close()
    }
    window.addEventListener('keydown', onKey)
    return () => window.removeEventListener('keydown', onKey)
  }, [open, close])
  return { shown, open, close }
}

/** New chat, and Settings (marked current while the settings show) */
function SidebarActions(): JSX.Element {
  const env = usePlatform()
  const showSettings = useNav((s) => s.showSettings)
  const view = useNav((s) => s.view)
  const t = useT()
  return (
    <div className="sidebar-actions">
      <button type="button" onClick={() => startNewChat(env)}>
        {t('chat.newChat')}
      </button>
      <button
        type="button"
        className="action"
        aria-current={view === 'settings' ? 'page' : undefined}
        onClick={() => showSettings()}
      >
        {t('settings.title')}
      </button>
    </div>
  )
}
