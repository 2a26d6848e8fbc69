import { useEffect, type JSX } from 'react'
import { ApprovalDialog } from './features/approvals/ApprovalDialog'
import { Composer } from './features/chat/Composer'
import { MessageList } from './features/chat/MessageList'
import { sessionFromHash, useChat } from './state'
import { ConnectionBanner } from './ui/ConnectionBanner'

export function App(): JSX.Element {
  const openSession = useChat((s) => s.openSession)
  const title = useChat((s) => s.title)
  const error = useChat((s) => s.error)
  const running = useChat((s) => s.turn?.running === true)

  useEffect(() => {
    void openSession(sessionFromHash(location.hash))
    const onHash = (): void => {
      const id = sessionFromHash(location.hash)
      if (id !== useChat.getState().sessionId) void openSession(id)
    }
    window.addEventListener('hashchange', onHash)
    return () => window.removeEventListener('hashchange', onHash)
  }, [openSession])

  return (
    <div className="app">
      <ConnectionBanner />
      <header className="top">
        <h1>Cairn</h1>
        <span className="title">{title}</span>
        <button type="button" onClick={() => void openSession(null)} disabled={running}>
          New chat
        </button>
      </header>
      <main>
        <MessageList />
      </main>
      {error ? (
        <p className="error" role="alert">
          {error}
        </p>
      ) : null}
      <Composer />
      <ApprovalDialog />
    </div>
  )
}
