/** The chat's title, its assistant, token totals; the theme switch. */
import { useEffect, type JSX } from 'react'
import { useT } from '../../i18n'
import { useFormat } from '../../i18n/format'
import type { SessionOrigin } from '../../../../src-preload/contract/dto'
import { useLive, useNav } from '../../state/context'
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
      {session?.origin?.kind === 'branch' ? <BranchOrigin origin={session.origin} /> : null}
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

/** "Branch into new chat" made this chat: where it came from, a link back to that message */
function BranchOrigin(props: { origin: Extract<SessionOrigin, { kind: 'branch' }> }): JSX.Element {
  const { origin } = props
  const open = useLive((s) => s.open)
  const nav = useNav((s) => s.setTarget)
  const t = useT()
  const gone = origin.messageSeq === null
  const title = origin.title || t('chat.untitled')
  return (
    <button
      type="button"
      className="action branch-origin"
      disabled={gone}
      title={gone ? t('chat.branchOriginGone') : undefined}
      onClick={() => {
        nav({ sessionId: origin.sessionId, messageId: origin.messageId })
        open(origin.sessionId)
      }}
    >
      {origin.messageSeq !== null
        ? t('chat.branchedFromAt', { title, seq: origin.messageSeq })
        : t('chat.branchedFrom', { title })}
    </button>
  )
}
