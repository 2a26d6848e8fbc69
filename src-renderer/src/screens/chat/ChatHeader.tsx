/** The chat's title, its assistant, token totals; the theme switch. */
import { useEffect, type JSX } from 'react'
import { useLive } from '../../state/context'
import { useSession } from '../../state/queries'
import { formatUsage } from '../../ui/use-now'
import { formatUsd } from '../../../../src-preload/contract/usage-format'
import { AssistantPicker } from '../../features/assistants/AssistantPicker'
import { BudgetBadge } from '../../features/usage/BudgetBadge'
import { useTheme } from '../../ui/theme'

export function ChatHeader(): JSX.Element {
  const sessionId = useLive((s) => s.currentId)
  const running = useLive((s) => (s.currentId ? s.running[s.currentId] !== undefined : false))
  const session = useSession(sessionId).data
  const [theme, toggleTheme] = useTheme()
  const title = sessionId ? session?.title || 'Untitled chat' : 'New chat'

  useEffect(() => {
    document.title = sessionId && session?.title ? `${session.title} — Cairn` : 'Cairn'
  }, [sessionId, session?.title])

  return (
    <header className="top">
      <span className="brand" aria-hidden="true">
        Cairn
      </span>
      <h1 className="title">
        {title}
        {running ? (
          <span className="running-dot" role="status" aria-label="Answering">
            ●
          </span>
        ) : null}
      </h1>
      <AssistantPicker />
      {session && (session.usage.inputTokens > 0 || session.usage.outputTokens > 0) ? (
        <span className="meta session-usage" title="Tokens in this chat so far">
          {formatUsage(session.usage)} tokens
        </span>
      ) : null}
      {typeof session?.usage.cost === 'number' ? (
        <span className="meta session-cost" title="What this chat's answers cost so far">
          {formatUsd(session.usage.cost)}
        </span>
      ) : null}
      <BudgetBadge chatCost={session?.usage.cost ?? null} />
      <button
        type="button"
        className="action"
        aria-label={theme === 'dark' ? 'Switch to light theme' : 'Switch to dark theme'}
        onClick={toggleTheme}
      >
        {theme === 'dark' ? '☀' : '☾'}
      </button>
    </header>
  )
}
