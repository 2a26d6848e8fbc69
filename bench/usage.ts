/**
 * The usage report (Settings › Usage, `cairn usage`) over 100 000 stored messages in 1 000
 * chats spread over a year, written through the real store: half are answers with usage,
 * across a few providers and models, most stored with their price and cost, some without
 * (priced at read time). Reports p50/p95 of the report by day, model, provider and chat, over
 * all time and over the last 30 days (which cuts through chats and quarter hours), read from
 * the running totals (migration 14), and the same sums as read before those, grouped over
 * the messages through the `messages_usage` index (migration 11), for the ratio.
 *
 * Standalone: `node --import tsx bench/usage.ts`. Also part of `npm run bench`.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { defaultSettings } from '../src-main/adapters/settings/schema'
import { createSessionStore } from '../src-main/adapters/sqlite/session-store'
import { SqliteUsageLedger } from '../src-main/adapters/sqlite/usage-ledger'
import { usageReport } from '../src-main/services/usage/usage-report'
import { USAGE_GROUPS, type UsageGroup } from '../src-preload/contract/usage'

const MESSAGES = 100_000
const SESSIONS = 1_000
const RUNS = 30
const TARGET_MS = 150

const MODELS = [
  ['https://api.openai.com/v1', 'gpt-4o'],
  ['https://api.openai.com/v1', 'gpt-4.1-mini'],
  ['https://openrouter.ai/api/v1', 'anthropic/claude-sonnet-4'],
  ['http://127.0.0.1:11434/v1', 'llama3.2'],
] as const

export interface UsageBenchResult {
  messages: number
  answers: number
  cases: {
    by: UsageGroup
    period: string
    rows: number
    p50Ms: number
    p95Ms: number
    /** the same sums grouped over the messages, as before the totals: p50 */
    beforeP50Ms: number
    pass: boolean
  }[]
  pass: boolean
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

function time(fn: () => unknown): number[] {
  fn()
  const times: number[] = []
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now()
    fn()
    times.push(performance.now() - t)
  }
  return times.sort((a, b) => a - b)
}

function fill(dir: string): number {
  const store = createSessionStore(dir)
  let answers = 0
  for (let s = 0; s < SESSIONS; s++) {
    const [provider, model] = MODELS[s % MODELS.length]!
    const session = store.createSession({ provider, model })
    store.batch(() => {
      for (let i = 0; i < MESSAGES / SESSIONS / 2; i++) {
        store.appendMessage(session.id, { role: 'user', content: `question ${i}` })
        const priced = i % 5 !== 0
        store.appendMessage(session.id, {
          role: 'assistant',
          content: `answer ${i}`,
          provider,
          model,
          usage: {
            inputTokens: 1000 + i,
            outputTokens: 300,
            cachedInputTokens: 200,
            estimated: false,
          },
          ...(priced
            ? { price: { input: 2.5, output: 10, source: 'table' as const }, cost: 0.0055 }
            : {}),
        })
        answers++
      }
    })
  }
  // a year of chats: each message moved back by up to 365 days
  store.db.exec(`UPDATE messages SET created_at = created_at - (pk % 365) * 86400000`)
  store.close()
  return answers
}

/** the sums as read before migration 14: one grouped query over the messages' index */
function beforeSql(by: UsageGroup): string {
  const key = {
    day: `date(m.created_at / 1000, 'unixepoch', 'localtime')`,
    model: `coalesce(m.model, '')`,
    provider: `coalesce(m.provider, '')`,
    session: 'm.session_id',
  }[by]
  return `SELECT ${key} AS key, m.provider, m.model, m.cost IS NOT NULL AS priced,
      count(*), sum(m.input_tokens), sum(m.output_tokens), sum(coalesce(m.cached_tokens, 0)),
      sum(coalesce(m.reasoning_tokens, 0)), sum(m.usage_estimated = 1), sum(m.cost)
    FROM messages m INDEXED BY messages_usage
    WHERE m.input_tokens IS NOT NULL AND m.created_at >= @since AND m.created_at < @until
    GROUP BY 1, 2, 3, 4`
}

export function benchUsage(): UsageBenchResult {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-usage-'))
  try {
    const answers = fill(dir)
    const store = createSessionStore(dir)
    const ledger = new SqliteUsageLedger(store)
    const settings = defaultSettings()
    const monthAgo = Date.now() - 30 * 86_400_000
    const periods = [
      { period: 'all time', since: null, until: null },
      { period: '30 days', since: monthAgo, until: null },
    ]
    const cases = periods.flatMap(({ period, since, until }) =>
      USAGE_GROUPS.map((by) => {
        let rows = 0
        const times = time(() => {
          rows = usageReport(ledger, settings, { since, until, by }).rows.length
        })
        const before = store.db.prepare(beforeSql(by))
        const bounds = { since: since ?? 0, until: until ?? Number.MAX_SAFE_INTEGER }
        const beforeP50Ms = percentile(
          time(() => before.all(bounds)),
          0.5,
        )
        const p95Ms = percentile(times, 0.95)
        const p50Ms = percentile(times, 0.5)
        return { by, period, rows, p50Ms, p95Ms, beforeP50Ms, pass: p95Ms <= TARGET_MS }
      }),
    )
    store.close()
    return { messages: MESSAGES, answers, cases, pass: cases.every((c) => c.pass) }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printUsageResult(r: UsageBenchResult): void {
  console.log(`   ${r.messages} messages, ${r.answers} answers with usage`)
  for (const c of r.cases)
    console.log(
      `   ${c.period.padEnd(8)} by ${c.by.padEnd(8)} ${String(c.rows).padStart(5)} rows   p50 ${c.p50Ms.toFixed(1)} ms   p95 ${c.p95Ms.toFixed(1)} ms   target p95 ≤ ${TARGET_MS} ms   ${c.pass ? 'PASS' : 'MISS'}   before (grouped over the messages): p50 ${c.beforeP50Ms.toFixed(1)} ms, ratio ${(c.beforeP50Ms / c.p50Ms).toFixed(1)}`,
    )
}
if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  printUsageResult(benchUsage())
}
