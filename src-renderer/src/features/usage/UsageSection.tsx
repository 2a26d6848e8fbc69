/**
 * Settings › Usage: what the stored answers used and cost in a chosen period, by day (a
 * chart and its table), by model, provider and chat; the monthly budget and your prices.
 * The same report as `cairn usage`.
 */
import { useState, type JSX } from 'react'
import type { UsageReport } from '../../../../src-preload/contract/usage'
import { useT } from '../../i18n'
import { useErrorText } from '../../ui/error-text'
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
  const total = props.report.total
  const t = useT()
  if (total.estimatedAnswers + total.unpricedAnswers + total.repricedAnswers === 0) return null
  return (
    <ul className="usage-notes meta">
      {total.estimatedAnswers > 0 ? (
        <li>{t('usage.estimated', { count: total.estimatedAnswers })}</li>
      ) : null}
      {total.repricedAnswers > 0 ? (
        <li>{t('usage.repriced', { count: total.repricedAnswers })}</li>
      ) : null}
      {total.unpricedAnswers > 0 ? (
        <li>{t('usage.unpriced', { count: total.unpricedAnswers })}</li>
      ) : null}
    </ul>
  )
}

function Report(props: { since: number | null }): JSX.Element {
  const byDay = useUsageReport('day', props.since)
  const byModel = useUsageReport('model', props.since)
  const byProvider = useUsageReport('provider', props.since)
  const byChat = useUsageReport('session', props.since)
  const t = useT()
  const errorText = useErrorText()
  if (!byDay.data || !byModel.data || !byProvider.data || !byChat.data) {
    const failed = [byDay, byModel, byProvider, byChat].find((q) => q.error)
    return failed ? (
      <p role="alert" className="error">
        {t('usage.readFailed', { error: errorText(failed.error) })}
      </p>
    ) : (
      <p className="meta" role="status">
        {t('usage.reading')}
      </p>
    )
  }
  if (byModel.data.rows.length === 0) return <p className="meta">{t('usage.none')}</p>
  return (
    <>
      <UsageChart rows={byDay.data.rows} />
      <Notes report={byModel.data} />
      <UsageTable
        caption={t('usage.byModel')}
        groupLabel={t('usage.model')}
        report={byModel.data}
      />
      <UsageTable
        caption={t('usage.byProvider')}
        groupLabel={t('usage.provider')}
        report={byProvider.data}
      />
      <UsageTable caption={t('usage.byChat')} groupLabel={t('usage.chat')} report={byChat.data} />
      <details className="usage-days">
        <summary>{t('usage.chartAsTable')}</summary>
        <UsageTable caption={t('usage.byDay')} groupLabel={t('usage.day')} report={byDay.data} days />
      </details>
    </>
  )
}

export function UsageSection(): JSX.Element {
  const [period, setPeriod] = useState<Period>('month')
  const settings = useFreshSettings()
  const budget = useBudget()
  const t = useT()
  return (
    <>
      <section className="settings-form usage" aria-label={t('usage.section')}>
        <div className="usage-period" role="group" aria-label={t('usage.period')}>
          {PERIODS.map((p) => (
            <button
              key={p.id}
              type="button"
              className="action"
              aria-pressed={period === p.id}
              onClick={() => setPeriod(p.id)}
            >
              {t(`usage.periods.${p.id}`)}
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
