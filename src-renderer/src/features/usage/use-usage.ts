/** The usage report and this month's budget, read from the host (`usage.report`, `usage.budget`). */
import { useQuery } from '@tanstack/react-query'
import type { UsageGroup } from '../../../../src-preload/contract/usage'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'

export type Period = 'month' | '30d' | '7d' | 'all'

export const PERIODS: { id: Period; label: string }[] = [
  { id: 'month', label: 'This month' },
  { id: '7d', label: 'Last 7 days' },
  { id: '30d', label: 'Last 30 days' },
  { id: 'all', label: 'All time' },
]

/** the period's first moment (the host's midnight), epoch ms; null: from the first answer */
export function periodStart(p: Period, now: Date = new Date()): number | null {
  const midnight = (daysBack: number): number =>
    new Date(now.getFullYear(), now.getMonth(), now.getDate() - daysBack).getTime()
  switch (p) {
    case 'month':
      return new Date(now.getFullYear(), now.getMonth(), 1).getTime()
    case '7d':
      return midnight(6)
    case '30d':
      return midnight(29)
    case 'all':
      return null
  }
}

export function useUsageReport(by: UsageGroup, since: number | null) {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: ['usage', by, since],
    queryFn: () => call(bridge, 'usage.report', { by, since }),
    refetchOnMount: 'always',
  })
}

export function useBudget() {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: ['usage', 'budget'],
    queryFn: () => call(bridge, 'usage.budget', {}),
    refetchOnMount: 'always',
  })
}
