/** One grouping of the usage report as a table: a row per model, provider, chat or day, and the total. */
import type { JSX } from 'react'
import type { UsageReport, UsageRow } from '../../../../src-preload/contract/usage'
import { formatUsd } from '../../../../src-preload/contract/usage-format'

const nf = new Intl.NumberFormat()

function Cells(props: { row: Omit<UsageRow, 'key' | 'label'> }): JSX.Element {
  const r = props.row
  return (
    <>
      <td>{nf.format(r.answers)}</td>
      <td>{nf.format(r.inputTokens)}</td>
      <td>{nf.format(r.cachedInputTokens)}</td>
      <td>{nf.format(r.outputTokens)}</td>
      <td>{r.cost === null ? '–' : formatUsd(r.cost)}</td>
    </>
  )
}

export function UsageTable(props: {
  caption: string
  groupLabel: string
  report: UsageReport
}): JSX.Element {
  const { report } = props
  return (
    <table className="usage-table">
      <caption>{props.caption}</caption>
      <thead>
        <tr>
          <th scope="col">{props.groupLabel}</th>
          <th scope="col">Answers</th>
          <th scope="col">Input tokens</th>
          <th scope="col">Cached</th>
          <th scope="col">Output tokens</th>
          <th scope="col">Cost</th>
        </tr>
      </thead>
      <tbody>
        {report.rows.map((r) => (
          <tr key={r.key}>
            <th scope="row">{r.label}</th>
            <Cells row={r} />
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">Total</th>
          <Cells row={report.total} />
        </tr>
      </tfoot>
    </table>
  )
}
