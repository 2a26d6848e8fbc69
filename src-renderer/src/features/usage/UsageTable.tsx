/** One grouping of the usage report as a table: a row per model, provider, chat or day, and the total. */
import type { JSX } from 'react'
import type { UsageReport, UsageRow } from '../../../../src-preload/contract/usage'
import { useT } from '../../i18n'
import { useFormat } from '../../i18n/format'
import { dayLabel } from './day-label'

function Cells(props: { row: Omit<UsageRow, 'key' | 'label'> }): JSX.Element {
  const r = props.row
  const format = useFormat()
  return (
    <>
      <td>{format.number(r.answers)}</td>
      <td>{format.number(r.inputTokens)}</td>
      <td>{format.number(r.cachedInputTokens)}</td>
      <td>{format.number(r.outputTokens)}</td>
      <td>{r.cost === null ? '–' : format.usd(r.cost)}</td>
    </>
  )
}

export function UsageTable(props: {
  caption: string
  groupLabel: string
  report: UsageReport
  /** the rows are days (YYYY-MM-DD): written as the language writes dates */
  days?: boolean
}): JSX.Element {
  const { report } = props
  const t = useT()
  const format = useFormat()
  return (
    <table className="usage-table">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.groupLabel}</th>
          <th scope="col">{t('usage.answers')}</th>
          <th scope="col">{t('usage.inputTokens')}</th>
          <th scope="col">{t('usage.cached')}</th>
          <th scope="col">{t('usage.outputTokens')}</th>
          <th scope="col">{t('usage.cost')}</th>
        </tr>
      </thead>
      <tbody>
        {report.rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">{props.days ? dayLabel(r.key, format) : r.label}</th>
            <Cells row={r} />
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">{t('usage.total')}</th>
          <Cells row={report.total} />
        </tr>
      </tfoot>
    </table>
  )
}
