/** The chat's title, its assistant, token totals; the theme switch. */
import { useEffect, type JSX } from 'react'
import { useT } from '../../i18n'
import { useFormat } from '../../i18n/format'
import { useLive } from '../../state/context'
import { useSession } from '../../state/queries'
import { formatUsd } from '../../../../src-preload/contract/usage-format'
import { AssistantPicker } from '../../features/assistants/AssistantPicker'
import { BudgetBadge } from '../../features/usage/BudgetBadge'
import { useTheme } from '../../ui/theme'
import { SidebarToggle } from '../../ui/sidebar-toggle'

export function ChatHeader(): JSX.Element {
  const sessionId = useLive((s) => s.currentId)
  const running = useLive((s) => (s.currentId ? s.running[s.currentId] !== undefined : false))
  const session = useSession(sessionId).data
  const [theme, toggleTheme] = useTheme()
  const t = useT()
  const format = useFormat()
  const title = sessionId ? session?.title || t('chat.untitled') : t('chat.newChat')

  useEffect(() => {
    document.title = sessionId && session?.title ? `${session.title} — Cairn` : 'Cairn'
  }, [sessionId, session?.title])

  return (
    <header className="top">
      <SidebarToggle />
      <span className="brand" aria-hidden="true">
        Cairn
      </span>
      <h1 className="title">
        {title}
        {running ? (
          <span className="running-dot" role="status" aria-label={t('chat.answering')}>
            ●
          </span>
        ) : null}
      </h1>
      <AssistantPicker />
      {session && (session.usage.inputTokens > 0 || session.usage.outputTokens > 0) ? (
        <span className="meta session-usage" title={t('chat.tokensSoFar')}>
          {t('chat.usage', {
            input: format.number(session.usage.inputTokens),
            output: format.number(session.usage.outputTokens),
          })}
        </span>
      ) : null}
      {typeof session?.usage.cost === 'number' ? (
        <span className="meta session-cost" title={t('chat.costSoFar')}>
          {formatUsd(session.usage.cost)}
        </span>
      ) : null}
      <BudgetBadge chatCost={session?.usage.cost ?? null} />
      <button
        type="button"
        className="action"
        aria-label={theme === 'dark' ? t('chat.toLight') : t('chat.toDark')}
        onClick={toggleTheme}
      >
        {theme === 'dark' ? '☀' : '☾'}
      </button>
    </header>
  )
}
