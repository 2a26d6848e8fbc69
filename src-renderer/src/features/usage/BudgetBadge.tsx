/**
 * In the chat header, once this month's spending reaches 80 % of the budget: how much of it
 * is used, linking to Settings › Usage. Read again when the chat's cost changes.
 */
import { useQuery } from '@tanstack/react-query'
import type { JSX } from 'react'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import './usage.css'

export function BudgetBadge(props: { chatCost: number | null }): JSX.Element | null {
  const { bridge } = usePlatform()
  const budget = useQuery({
    queryKey: ['usage', 'budget', props.chatCost],
    queryFn: () => call(bridge, 'usage.budget', {}),
  })
  const s = budget.data
  if (!s || s.level === 'none' || s.percent === null) return null
  const percent = Math.round(s.percent)
  return (
    <a
      className={`meta budget-badge ${s.level}`}
      href="#/settings/usage"
      role="status"
      title="This month’s spending against your budget (Settings › Usage)"
    >
      {s.level === 'exceeded' ? `Over budget: ${percent} %` : `Budget: ${percent} % used`}
    </a>
  )
}
