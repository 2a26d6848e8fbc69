/** Notices in the conversation: retries, loop warnings, host notices, why a turn ended. */
import { memo, type JSX } from 'react'
import type { Row } from '../../../state/conversation'
import { useT } from '../../../i18n'
import { useErrorText } from '../../../ui/error-text'
import { useNow } from '../../../ui/use-now'
import { isProviderProblem, ProviderSettingsLink } from '../../../ui/ProviderSettingsLink'
import { useRowActions } from './actions'

type NoticeData = Extract<Row, { kind: 'notice' }>
type EndData = Extract<Row, { kind: 'end' }>
type SummaryData = Extract<Row, { kind: 'summary' }>

/** the ends of a turn said in the conversation, by reason (an error says its own) */
const ENDED = [
  'aborted',
  'max_iterations',
  'max_tool_executions',
  'deadline',
  'loop',
  'tool_failure',
  'denied',
] as const

export const NoticeRow = memo(function NoticeRow(props: { row: NoticeData }): JSX.Element {
  const { row } = props
  const now = useNow(row.until !== undefined, 250)
  const left = row.until !== undefined ? Math.max(0, Math.ceil((row.until - now) / 1000)) : null
  const t = useT()
  const text =
    row.attempt !== undefined
      ? left
        ? t('chat.retryingIn', { message: row.message, attempt: row.attempt, seconds: left })
        : t('chat.retrying', { message: row.message, attempt: row.attempt })
      : row.message
  return (
    <p className={`notice notice-${row.level}`} role="status">
      {text}
    </p>
  )
})

export const EndRow = memo(function EndRow(props: { row: EndData }): JSX.Element {
  const { end, retry } = props.row
  const { resend } = useRowActions()
  const failed = end.reason === 'error'
  const t = useT()
  const errorText = useErrorText()
  const endText = (e: EndData['end']): string =>
    e.error
      ? errorText(e.error)
      : (ENDED as readonly string[]).includes(e.reason)
        ? t(`chat.ended.${e.reason as (typeof ENDED)[number]}`)
        : e.message
  return (
    <div className={`notice turn-end${failed ? ' notice-error' : ' notice-warning'}`} role="alert">
      <span>{endText(end)}</span>
      {failed && end.error && isProviderProblem(end.error) ? <ProviderSettingsLink /> : null}
      {failed && retry ? (
        <button type="button" onClick={() => resend(retry.messageId, retry.text)}>
          {t('chat.retry')}
        </button>
      ) : null}
    </div>
  )
})

/**
 * "Earlier conversation summarized", where the summary stands in for earlier messages.
 * Expanded: the summary, Undo compaction, and the original messages below it.
 */
export const SummaryRow = memo(function SummaryRow(props: { row: SummaryData }): JSX.Element {
  const { row } = props
  const { toggleSummary, undoCompaction } = useRowActions()
  const t = useT()
  if (row.summaryId === null) {
    return (
      <details className="notice summary">
        <summary>{t('chat.summary.title')}</summary>
        <div className="summary-text">{row.text}</div>
      </details>
    )
  }
  const id = row.summaryId
  const count = t('chat.summary.messages', { count: row.covered })
  return (
    <section className="notice summary" aria-label={t('chat.summary.title')}>
      <button
        type="button"
        className="summary-toggle"
        aria-expanded={row.expanded}
        aria-controls={`summary-${id}`}
        onClick={() => toggleSummary?.(id)}
      >
        {t('chat.summary.title')} <span className="meta">({count})</span>
      </button>
      {row.expanded ? (
        <div id={`summary-${id}`} className="summary-body">
          <p className="meta">{t('chat.summary.about', { count: row.covered })}</p>
          <div className="summary-text">{row.text}</div>
          <button type="button" className="action" onClick={() => undoCompaction?.(id)}>
            {t('chat.summary.undo')}
          </button>
        </div>
      ) : null}
    </section>
  )
})
