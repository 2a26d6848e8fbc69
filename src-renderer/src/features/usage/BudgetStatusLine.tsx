/** This month's spending against the budget; a warning from 80 %, an alert at 100 %. */
import type { JSX } from 'react'
import type { BudgetStatus } from '../../../../src-preload/contract/usage'
import { formatUsd } from '../../../../src-preload/contract/usage-format'

export function BudgetStatusLine(props: { status: BudgetStatus }): JSX.Element | null {
  const s = props.status
  if (s.monthlyBudget === null || s.percent === null) return null
  const percent = Math.round(s.percent)
  if (s.level === 'exceeded')
    return (
      <p role="alert" className="usage-budget exceeded">
        Over budget: {formatUsd(s.spent)} spent this month, {percent} % of your{' '}
        {formatUsd(s.monthlyBudget)} budget.
      </p>
    )
  if (s.level === 'warning')
    return (
      <p role="alert" className="usage-budget warning">
        {percent} % of this month’s budget used: {formatUsd(s.spent)} of{' '}
        {formatUsd(s.monthlyBudget)}.
      </p>
    )
  return (
    <p className="usage-budget meta">
      This month: {formatUsd(s.spent)} of {formatUsd(s.monthlyBudget)} ({percent} %).
    </p>
  )
}
