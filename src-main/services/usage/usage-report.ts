/**
 * The usage report: the stored usage of a period, grouped by day, model, provider or chat,
 * with what it cost. An answer keeps the price it was stored with (a price changed later
 * does not rewrite history); an answer stored without one (before prices, or none known
 * then) is priced now with the prices in force, and counted as such. The window's
 * Settings › Usage and `cairn usage` both show this.
 */
import type { SettingsData } from '../../../src-preload/contract/settings-schema'
import type {
  BudgetStatus,
  UsageGroup,
  UsageReport,
  UsageRow,
} from '../../../src-preload/contract/usage'
import { costOf, resolvePrice, roundCost } from '../../core/llm/pricing'
import type { UsageLedger, UsageSums } from '../../core/service-ports'
import { LOCAL_PROVIDER_ID, LOCAL_PROVIDER_NAME } from '../providers/local-provider'
import { normalizeBaseURL } from '../providers/provider'

export interface UsageReportInput {
  since: number | null
  until: number | null
  by: UsageGroup
}

type Totals = Omit<UsageRow, 'key' | 'label'>

function emptyTotals(): Totals {
  return {
    answers: 0,
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    cost: null,
    estimatedAnswers: 0,
    unpricedAnswers: 0,
    repricedAnswers: 0,
  }
}

/** adds one ledger row (its cost known or not) to a group's totals */
function add(t: Totals, s: UsageSums, cost: number | null): void {
  t.answers += s.answers
  t.inputTokens += s.inputTokens
  t.outputTokens += s.outputTokens
  t.cachedInputTokens += s.cachedInputTokens
  t.estimatedAnswers += s.estimatedAnswers
  if (cost !== null) t.cost = roundCost((t.cost ?? 0) + cost)
  else t.unpricedAnswers += s.answers
  if (!s.priced && cost !== null) t.repricedAnswers += s.answers
}

/** a stored row's cost: its own, else the tokens at the price in force (null: none known) */
function rowCost(s: UsageSums, settings: SettingsData): number | null {
  if (s.priced) return s.cost
  if (s.model === null) return null
  const price = resolvePrice({
    model: s.model,
    local: s.provider === LOCAL_PROVIDER_ID,
    user: settings.usage.prices,
  })
  if (!price) return null
  return costOf(
    {
      inputTokens: s.inputTokens,
      outputTokens: s.outputTokens,
      cachedInputTokens: s.cachedInputTokens,
      reasoningTokens: s.reasoningTokens,
      estimated: false,
    },
    price,
  )
}

/** a provider as the user knows it: the settings' name for its address, else the address */
export function providerLabel(provider: string | null, settings: SettingsData): string {
  if (provider === null || provider === '') return 'Unknown provider'
  if (provider === LOCAL_PROVIDER_ID) return LOCAL_PROVIDER_NAME
  const named = settings.providers.find((p) => normalizeBaseURL(p.baseURL) === provider)
  return named ? named.name : provider
}

function label(by: UsageGroup, s: UsageSums, settings: SettingsData): string {
  switch (by) {
    case 'provider':
      return providerLabel(s.provider, settings)
    case 'session':
      return s.title || 'Untitled chat'
    case 'model':
      return s.key || 'Unknown model'
    case 'day':
      return s.key
  }
}

/** the rows in their order: days in time order, the rest by cost and then tokens, largest first */
function ordered(by: UsageGroup, rows: UsageRow[]): UsageRow[] {
  if (by === 'day') return rows.sort((a, b) => a.key.localeCompare(b.key))
  return rows.sort(
    (a, b) =>
      (b.cost ?? -1) - (a.cost ?? -1) ||
      b.inputTokens + b.outputTokens - (a.inputTokens + a.outputTokens) ||
      a.label.localeCompare(b.label),
  )
}

export function usageReport(
  ledger: UsageLedger,
  settings: SettingsData,
  q: UsageReportInput,
): UsageReport {
  const groups = new Map<string, UsageRow>()
  const total = emptyTotals()
  for (const s of ledger.sums(q)) {
    const cost = rowCost(s, settings)
    let row = groups.get(s.key)
    if (!row) {
      row = { key: s.key, label: label(q.by, s, settings), ...emptyTotals() }
      groups.set(s.key, row)
    }
    add(row, s, cost)
    add(total, s, cost)
  }
  return {
    since: q.since,
    until: q.until,
    by: q.by,
    rows: ordered(q.by, [...groups.values()]),
    total,
  }
}

/** the first moment of `now`'s month, in the host's time zone */
export function monthStart(now: number): number {
  const d = new Date(now)
  return new Date(d.getFullYear(), d.getMonth(), 1).getTime()
}

/** This month's spending against the monthly budget: a warning from 80 %, exceeded at 100 %. */
export function budgetStatus(
  ledger: UsageLedger,
  settings: SettingsData,
  now: number,
): BudgetStatus {
  const report = usageReport(ledger, settings, { since: monthStart(now), until: null, by: 'model' })
  const spent = report.total.cost ?? 0
  const budget = settings.usage.monthlyBudget
  if (budget === null) return { monthlyBudget: null, spent, percent: null, level: 'none' }
  const percent = (spent / budget) * 100
  const level = percent >= 100 ? 'exceeded' : percent >= 80 ? 'warning' : 'none'
  return { monthlyBudget: budget, spent, percent, level }
}
