/** This month's spending against the budget; a warning from 80 %, an alert at 100 %. */
import type { JSX } from 'react'
import type { BudgetStatus } from '../../../../src-preload/contract/usage'
import { useT } from '../../i18n'
import { useFormat } from '../../i18n/format'

export function BudgetStatusLine(props: { status: BudgetStatus }): JSX.Element | null {
  const s = props.status
  const t = useT()
  const format = useFormat()
  if (s.monthlyBudget === null || s.percent === null) return null
  const values = {
    percent: format.number(Math.round(s.percent)),
    spent: format.usd(s.spent),
    budget: format.usd(s.monthlyBudget),
  }
  if (s.level === 'exceeded')
    return (
      <p role="alert" className="usage-budget exceeded">
        {t('usage.budget.exceeded', values)}
      </p>
    )
  if (s.level === 'warning')
    return (
      <p role="alert" className="usage-budget warning">
        {t('usage.budget.warning', values)}
      </p>
    )
  return (
    <p className="usage-budget meta">
      {t('usage.budget.line', values)}
    </p>
  )
}
