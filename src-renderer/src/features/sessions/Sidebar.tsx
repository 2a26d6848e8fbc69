/**
 * The sessions sidebar: New chat, Settings, a search box, and either the list of chats or,
 * while something is typed, the search results. Deleting a chat can be undone for a few
 * seconds (see use-pending-delete.ts). Row actions, search and the list are in the files
 * beside this one.
 */
import { useCallback, useEffect, useMemo, useRef, useState, type JSX } from 'react'
import type { SearchHit, SessionRecord } from '../../../../src-preload/contract/dto'
import { useLive, useNav, usePlatform } from '../../state/context'
import { call, keys } from '../../state/queries'
import { ConfirmDeleteDialog } from '../../ui/ConfirmDeleteDialog'
import { groupHits } from './group-hits'
import { SearchResults } from './SearchResults'
import { flattenPages, useSearchHits, useSessionList } from './session-queries'
import { SessionList } from './SessionList'
import type { RowCallbacks } from './SessionRow'
import { startNewChat, useReopenLast } from './start'
import { useDebounced } from '../../ui/use-debounced'
import { usePendingDelete } from './use-pending-delete'
import './sidebar.css'

/** typing waits this long for a pause before searching */
const DEBOUNCE_MS = 150

export function Sidebar(): JSX.Element {
  const env = usePlatform()
  const { bridge, client, platform } = env
  const currentId = useLive((s) => s.currentId)
  const running = useLive((s) => s.running)
  const showSettings = useNav((s) => s.showSettings)
  const view = useNav((s) => s.view)
  const focusTick = useNav((s) => s.searchFocusTick)

  const list = useSessionList()
  const [text, setText] = useState('')
  const query = useDebounced(text.trim(), DEBOUNCE_MS)
  const search = useSearchHits(query)
  const searchBox = useRef<HTMLInputElement>(null)
  const deletes = usePendingDelete()
  const [confirm, setConfirm] = useState<SessionRecord | null>(null)
  const [notice, setNotice] = useState<string | null>(null)
  const [exported, setExported] = useState<string | null>(null)

  useReopenLast(list.data?.pages[0]?.sessions)

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

  const changed = useCallback(
    () => void client.invalidateQueries({ queryKey: keys.sessions }),
    [client],
  )
  const callbacks = useMemo<RowCallbacks>(
    () => ({
      open: (id) => {
        env.nav.getState().showChat()
        env.live.getState().open(id)
      },
      rename: async (id, title) => {
        await call(bridge, 'sessions.rename', { id, title })
        changed()
      },
      pin: (s) => {
        call(bridge, 'sessions.pin', { id: s.id, pinned: !s.pinned })
          .then(changed)
          .catch((e: unknown) => setNotice(`Could not ${s.pinned ? 'unpin' : 'pin'}: ${String(e)}`))
      },
      exportAs: (s, format) => {
        call(bridge, 'sessions.export', { id: s.id, format })
          .then((f) => platform.saveFile(f.filename, f.mimeType, f.content))
          .then((where) => setExported(where))
          .catch((e: unknown) =>
            setNotice(`Could not export: ${e instanceof Error ? e.message : String(e)}`),
          )
      },
      askDelete: (s) => setConfirm(s),
    }),
    [env, bridge, platform, changed],
  )

  const choose = useCallback(
    (sessionId: string, hit: SearchHit | null) => {
      const nav = env.nav.getState()
      nav.setTarget(hit?.messageId ? { sessionId, messageId: hit.messageId } : null)
      nav.showChat()
      env.live.getState().open(sessionId)
    },
    [env],
  )

  const searching = text.trim() !== ''
  return (
    <section className="sidebar" aria-label="Sessions">
      <div className="sidebar-actions">
        <button type="button" onClick={() => startNewChat(env)}>
          New chat
        </button>
        <button
          type="button"
          className="action"
          aria-current={view === 'settings' ? 'page' : undefined}
          onClick={() => showSettings()}
        >
          Settings
        </button>
      </div>
      <div className="sidebar-search">
        <input
          ref={searchBox}
          type="search"
          aria-label="Search"
          placeholder="Search chats"
          aria-keyshortcuts="Control+K Meta+K"
          value={text}
          maxLength={1000}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && text !== '') {
              e.preventDefault()
              setText('')
            } else if (e.key === 'ArrowDown' && searching) {
              e.preventDefault()
              e.currentTarget
                .closest('.sidebar')
                ?.querySelector<HTMLElement>('.search-results button')
                ?.focus()
            }
          }}
        />
      </div>
      {searching ? (
        <SearchResults
          groups={groups}
          pending={query !== text.trim() || search.isFetching}
          error={search.isError ? search.error.message : null}
          onChoose={choose}
          onLeave={() => searchBox.current?.focus()}
        />
      ) : list.isError ? (
        <div className="sidebar-note" role="alert">
          <p>Could not load the chats: {list.error.message}</p>
          <button type="button" onClick={() => void list.refetch()}>
            Try again
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
      <div className="toasts">
        <div role="status">
          {deletes.pending ? (
            <div className="toast">
              <span>Chat deleted</span>
              <button type="button" className="action" onClick={deletes.undo}>
                Undo
              </button>
            </div>
          ) : null}
          {exported ? (
            <div className="toast">
              <span className="toast-path">Exported to {exported}</span>
              <button type="button" className="action" onClick={() => setExported(null)}>
                Dismiss
              </button>
            </div>
          ) : null}
        </div>
        {deletes.error || notice ? (
          <div className="toast toast-error" role="alert">
            <span>{deletes.error ?? notice}</span>
            <button
              type="button"
              className="action"
              onClick={() => {
                deletes.dismissError()
                setNotice(null)
              }}
            >
              Dismiss
            </button>
          </div>
        ) : null}
      </div>
      <ConfirmDeleteDialog
        open={confirm !== null}
        title="Delete this chat?"
        onCancel={() => setConfirm(null)}
        onConfirm={() => {
          if (confirm) deletes.remove({ id: confirm.id, title: confirm.title })
          setConfirm(null)
        }}
      >
        “{confirm?.title || 'Untitled chat'}” and its messages will be deleted. You can undo this
        for a few seconds.
      </ConfirmDeleteDialog>
    </section>
  )
}
