/**
 * `cairn usage`: what the stored answers used and cost, for a period, grouped by model,
 * provider, day or chat: the same report as the window's Settings › Usage.
 */
import {
  USAGE_GROUPS,
  formatUsd,
  type UsageGroup,
  type UsageReport,
  type UsageRow,
} from '../../src-preload/contract/usage'
import type { AppServices } from '../services/host/app-services'
import { budgetStatus, usageReport } from '../services/usage/usage-report'
import { UsageError, type CliOptions } from './args'
import type { Streams } from './output'
import { jsonLine, stripControls } from './terminal-text'

/** `YYYY-MM-DD` (the host's midnight) or a full ISO date and time, as epoch ms */
export function parseDay(flag: string, text: string): number {
  const day = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  const ms = day
    ? new Date(Number(day[1]), Number(day[2]) - 1, Number(day[3])).getTime()
    : /^\d{4}-\d{2}-\d{2}T/.test(text)
      ? Date.parse(text)
      : NaN
  if (!Number.isFinite(ms))
    throw new UsageError(`${flag} takes a date as YYYY-MM-DD (e.g. 2026-11-01), not "${text}"`)
  return ms
}

function groupOf(by: string | undefined): UsageGroup {
  if (by === undefined) return 'model'
  if (by === 'chat') return 'session'
  if ((USAGE_GROUPS as readonly string[]).includes(by) && by !== 'session') return by as UsageGroup
  throw new UsageError(`--by must be model, provider, day or chat, not "${by}"`)
}

const int = (n: number): string => n.toLocaleString('en-US')

function cells(label: string, r: Omit<UsageRow, 'key' | 'label'>): string[] {
  return [
    label,
    int(r.answers),
    int(r.inputTokens),
    int(r.cachedInputTokens),
    int(r.outputTokens),
    r.cost === null ? '–' : formatUsd(r.cost),
  ]
}

/** the report as an aligned table, the total last, then what its figures rest on */
export function usageTable(report: UsageReport): string[] {
  const head = ['', 'answers', 'input', 'cached', 'output', 'cost']
  head[0] = report.by === 'session' ? 'chat' : report.by
  const rows = report.rows.map((r) => cells(stripControls(r.label), r))
  rows.push(cells('total', report.total))
  const all = [head, ...rows]
  const widths = head.map((_, i) => Math.max(...all.map((r) => r[i]!.length)))
  const line = (r: string[]): string =>
    r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join('  ')
  const out = all.map(line)
  const t = report.total
  if (t.estimatedAnswers > 0)
    out.push(
      `${t.estimatedAnswers} answer(s) had no usage from the server: their tokens are estimated.`,
    )
  if (t.repricedAnswers > 0)
    out.push(
      `${t.repricedAnswers} answer(s) were stored without a price: priced at today's prices.`,
    )
  if (t.unpricedAnswers > 0)
    out.push(
      `${t.unpricedAnswers} answer(s) have no known price: set one in Settings › Usage (their cost is left out).`,
    )
  return out
}

export function usageCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): number {
  if (args.length > 0)
    throw new UsageError(`cairn usage takes no arguments, not "${args.join(' ')}"`)
  const { since, until, by } = options.usage
  const report = usageReport(app.usage, app.settings.get(), {
    since: since === undefined ? null : parseDay('--since', since),
    until: until === undefined ? null : parseDay('--until', until),
    by: groupOf(by),
  })
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  if (options.json) {
    out(jsonLine(report))
    return 0
  }
  if (report.rows.length === 0) {
    out('No answers with usage in this period.')
    return 0
  }
  for (const l of usageTable(report)) out(l)
  const budget = budgetStatus(app.usage, app.settings.get(), Date.now())
  if (budget.monthlyBudget !== null && budget.percent !== null)
    out(
      `This month: ${formatUsd(budget.spent)} of the ${formatUsd(budget.monthlyBudget)} budget (${Math.round(budget.percent)} %).`,
    )
  return 0
}
