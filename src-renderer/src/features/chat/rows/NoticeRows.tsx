/** Notices in the conversation: retries, loop warnings, host notices, why a turn ended. */
import { memo, type JSX } from 'react'
import type { Row } from '../../../state/conversation'
import { useNow } from '../../../ui/use-now'
import { isProviderProblem, ProviderSettingsLink } from '../../../ui/ProviderSettingsLink'
import { useRowActions } from './actions'

type NoticeData = Extract<Row, { kind: 'notice' }>
type EndData = Extract<Row, { kind: 'end' }>
type SummaryData = Extract<Row, { kind: 'summary' }>

export const NoticeRow = memo(function NoticeRow(props: { row: NoticeData }): JSX.Element {
  const { row } = props
  const now = useNow(row.until !== undefined, 250)
  const left = row.until !== undefined ? Math.max(0, Math.ceil((row.until - now) / 1000)) : null
  const text =
    row.attempt !== undefined
      ? `${row.message} — retrying ${row.attempt}${left ? ` in ${left} s` : '…'}`
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
  return (
    <div className={`notice turn-end${failed ? ' notice-error' : ' notice-warning'}`} role="alert">
      <span>{end.message}</span>
      {failed && end.error && isProviderProblem(end.error) ? <ProviderSettingsLink /> : null}
      {failed && retry ? (
        <button type="button" onClick={() => resend(retry.messageId, retry.text)}>
          Retry
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
  if (row.summaryId === null) {
    return (
      <details className="notice summary">
        <summary>Earlier conversation summarized</summary>
        <div className="summary-text">{row.text}</div>
      </details>
    )
  }
  const id = row.summaryId
  const count = `${row.covered} message${row.covered === 1 ? '' : 's'}`
  return (
    <section className="notice summary" aria-label="Earlier conversation summarized">
      <button
        type="button"
        className="summary-toggle"
        aria-expanded={row.expanded}
        aria-controls={`summary-${id}`}
        onClick={() => toggleSummary?.(id)}
      >
        Earlier conversation summarized <span className="meta">({count})</span>
      </button>
      {row.expanded ? (
        <div id={`summary-${id}`} className="summary-body">
          <p className="meta">
            The model is sent this summary instead of the {count} below, which are kept as they
            were.
          </p>
          <div className="summary-text">{row.text}</div>
          <button type="button" className="action" onClick={() => undoCompaction?.(id)}>
            Undo compaction
          </button>
        </div>
      ) : null}
    </section>
  )
})
