/**
 * Settings › Usage: what the stored answers used and cost in a chosen period, by day (a
 * chart and its table), by model, provider and chat; the monthly budget and your prices.
 * The same report as `cairn usage`.
 */
import { useState, type JSX } from 'react'
import type { UsageReport } from '../../../../src-preload/contract/usage'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useFreshSettings } from '../../ui/forms/use-save-settings'
import { BudgetForm } from './BudgetForm'
import { BudgetStatusLine } from './BudgetStatusLine'
import { PricesForm } from './PricesForm'
import { UsageChart } from './UsageChart'
import { UsageTable } from './UsageTable'
import { PERIODS, periodStart, useBudget, useUsageReport, type Period } from './use-usage'
import './usage.css'

function Notes(props: { report: UsageReport }): JSX.Element | null {
  const t = props.report.total
  if (t.estimatedAnswers + t.unpricedAnswers + t.repricedAnswers === 0) return null
  return (
    <ul className="usage-notes meta">
      {t.estimatedAnswers > 0 ? (
        <li>
          Estimated: {t.estimatedAnswers} answers came without usage from the server; Cairn counted
          their tokens.
        </li>
      ) : null}
      {t.repricedAnswers > 0 ? (
        <li>
          {t.repricedAnswers} answers were stored without a price and are priced at today’s prices.
        </li>
      ) : null}
      {t.unpricedAnswers > 0 ? (
        <li>
          {t.unpricedAnswers} answers have no known price and are left out of the cost: set one
          below.
        </li>
      ) : null}
    </ul>
  )
}

function Report(props: { since: number | null }): JSX.Element {
  const byDay = useUsageReport('day', props.since)
  const byModel = useUsageReport('model', props.since)
  const byProvider = useUsageReport('provider', props.since)
  const byChat = useUsageReport('session', props.since)
  if (!byDay.data || !byModel.data || !byProvider.data || !byChat.data) {
    const failed = [byDay, byModel, byProvider, byChat].find((q) => q.error)
    return failed ? (
      <p role="alert" className="error">
        The usage could not be read: {failed.error?.message}
      </p>
    ) : (
      <p className="meta" role="status">
        Reading the usage…
      </p>
    )
  }
  if (byModel.data.rows.length === 0) return <p className="meta">No answers in this period.</p>
  return (
    <>
      <UsageChart rows={byDay.data.rows} />
      <Notes report={byModel.data} />
      <UsageTable caption="By model" groupLabel="Model" report={byModel.data} />
      <UsageTable caption="By provider" groupLabel="Provider" report={byProvider.data} />
      <UsageTable caption="By chat" groupLabel="Chat" report={byChat.data} />
      <details className="usage-days">
        <summary>The chart as a table</summary>
        <UsageTable caption="By day" groupLabel="Day" report={byDay.data} />
      </details>
    </>
  )
}

export function UsageSection(): JSX.Element {
  const [period, setPeriod] = useState<Period>('month')
  const settings = useFreshSettings()
  const budget = useBudget()
  return (
    <>
      <section className="settings-form usage" aria-label="Usage and cost">
        <div className="usage-period" role="group" aria-label="Period">
          {PERIODS.map((p) => (
            <button
              key={p.id}
              type="button"
              className="action"
              aria-pressed={period === p.id}
              onClick={() => setPeriod(p.id)}
            >
              {p.label}
            </button>
          ))}
        </div>
        {budget.data ? <BudgetStatusLine status={budget.data} /> : null}
        <Report since={periodStart(period)} />
      </section>
      {settings.data ? (
        <>
          <BudgetForm saved={settings.data.usage} />
          <PricesForm saved={settings.data.usage} />
        </>
      ) : (
        <SettingsLoading query={settings} />
      )}
    </>
  )
}
