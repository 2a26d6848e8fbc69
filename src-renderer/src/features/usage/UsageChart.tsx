/**
 * The cost (or, without prices, the tokens) of each day as SVG bars, with the same figures
 * in a table for screen readers and keyboards: the chart is an image named by its summary,
 * the table is the equivalent. No chart library.
 */
import type { JSX } from 'react'
import type { UsageRow } from '../../../../src-preload/contract/usage'
import { useT } from '../../i18n'
import { useFormat } from '../../i18n/format'
import { dayLabel } from './day-label'

function value(r: UsageRow, byCost: boolean): number {
  return byCost ? (r.cost ?? 0) : r.inputTokens + r.outputTokens
}

export function UsageChart(props: { rows: UsageRow[] }): JSX.Element {
  const rows = props.rows
  const t = useT()
  const format = useFormat()
  const day = (key: string): string => dayLabel(key, format)
  const byCost = rows.some((r) => r.cost !== null && r.cost > 0)
  const max = Math.max(...rows.map((r) => value(r, byCost)), 0)
  const width = 600
  const height = 140
  const gap = rows.length > 60 ? 0 : 2
  // a bar is at most a seventh of the width, so that a few days do not fill the chart
  const bar = width / Math.max(rows.length, 7)
  const show = (n: number): string =>
    byCost ? format.usd(n) : t('usage.tokensN', { n: format.number(n) })
  const summary =
    rows.length === 0
      ? t('usage.noneChart')
      : t(byCost ? 'usage.chartCost' : 'usage.chartTokens', {
          from: day(rows[0]!.key),
          to: day(rows.at(-1)!.key),
          max: show(max),
        })
  return (
    <figure className="usage-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        preserveAspectRatio="none"
        role="img"
        aria-label={summary}
      >
        <line x1="0" y1={height - 0.5} x2={width} y2={height - 0.5} className="axis" />
        {rows.map((r, i) => {
          const h = max > 0 ? Math.max(1, (value(r, byCost) / max) * (height - 4)) : 0
          return (
            <rect
              key={r.key}
              x={i * bar + gap / 2}
              y={height - h}
              width={Math.max(1, bar - gap)}
              height={h}
              className="bar"
            >
              <title>{`${day(r.key)}: ${show(value(r, byCost))}`}</title>
            </rect>
          )
        })}
      </svg>
      <figcaption className="meta">{summary}</figcaption>
    </figure>
  )
}
