/**
 * The sessions sidebar: New chat, Settings, and the list of past conversations. (A first
 * version: the searchable, virtualized list replaces the plain one.)
 */
import { useQuery } from '@tanstack/react-query'
import type { JSX } from 'react'
import { useLive, useNav, usePlatform } from '../../state/context'
import { call, keys } from '../../state/queries'

export function Sidebar(): JSX.Element {
  const { bridge } = usePlatform()
  const open = useLive((s) => s.open)
  const currentId = useLive((s) => s.currentId)
  const running = useLive((s) => s.running)
  const showChat = useNav((s) => s.showChat)
  const showSettings = useNav((s) => s.showSettings)
  const view = useNav((s) => s.view)
  const list = useQuery({
    queryKey: keys.sessions,
    queryFn: () => call(bridge, 'sessions.list', { limit: 100 }),
  })
  return (
    <nav className="sidebar" aria-label="Sessions">
      <div className="sidebar-actions">
        <button
          type="button"
          onClick={() => {
            showChat()
            open(null)
          }}
        >
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
      <ul className="session-list">
        {list.data?.sessions.map((s) => (
          <li key={s.id}>
            <button
              type="button"
              className="session-item"
              aria-current={view === 'chat' && s.id === currentId ? 'page' : undefined}
              onClick={() => {
                showChat()
                open(s.id)
              }}
            >
              {s.title || 'Untitled chat'}
              {running[s.id] ? <span className="running-dot" aria-label="Answering">●</span> : null}
            </button>
          </li>
        ))}
      </ul>
    </nav>
  )
}
