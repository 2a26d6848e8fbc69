/**
 * The usage report's sums on SQLite: from the running totals of migration 14
 * (usage-totals.ts), and, where a period cuts through a quarter hour or a chat, from the
 * messages through the `messages_usage` index (migration 11), which holds every column read.
 */
import type { Database, Statement } from 'better-sqlite3'
import type { UsageGroup } from '../../../src-preload/contract/usage'
import type { UsageLedger, UsageQuery, UsageSums } from '../../core/service-ports'
import type { SqliteSessionStore } from './session-store'
import { USAGE_BUCKET_MS } from './usage-totals'

interface SumsRow {
  /** the group; by day, the quarter hour (`usage_totals.bucket`) */
  key: string | number | null
  title: string | null
  provider: string | null
  model: string | null
  priced: number
  answers: number
  input: number
  output: number
  cached: number
  reasoning: number
  estimated: number
  cost: number | null
}

/** the sums of messages `m` (each one answer) as the totals tables' columns */
const MESSAGE_SUMS = `m.provider, m.model, m.cost IS NOT NULL AS priced, 1 AS answers,
  m.input_tokens AS input, coalesce(m.output_tokens, 0) AS output,
  coalesce(m.cached_tokens, 0) AS cached, coalesce(m.reasoning_tokens, 0) AS reasoning,
  coalesce(m.usage_estimated = 1, 0) AS estimated, m.cost`
const TOTAL_SUMS = `nullif(t.provider, '') AS provider, nullif(t.model, '') AS model, t.priced,
  t.answers, t.input, t.output, t.cached, t.reasoning, t.estimated, t.cost`
const GROUPED = `SELECT key, provider, model, priced, sum(answers) AS answers, sum(input) AS input,
  sum(output) AS output, sum(cached) AS cached, sum(reasoning) AS reasoning,
  sum(estimated) AS estimated, sum(cost) AS cost`
/** the answers with usage stored in [from, to) */
const messagesIn = (key: string, from: string, to: string): string =>
  `SELECT ${key} AS key, ${MESSAGE_SUMS} FROM messages m INDEXED BY messages_usage
    WHERE m.input_tokens IS NOT NULL AND m.created_at >= ${from} AND m.created_at < ${to}`

/** what a group's key is, over the quarter-hour totals (`t`) and over the messages (`m`) */
const KEY: Record<Exclude<UsageGroup, 'session'>, { totals: string; messages: string }> = {
  // the quarter hour: its day is found once per row here (SQLite's 'localtime' is slow)
  day: { totals: 't.bucket', messages: `m.created_at / ${USAGE_BUCKET_MS}` },
  model: { totals: 't.model', messages: `coalesce(m.model, '')` },
  provider: { totals: 't.provider', messages: `coalesce(m.provider, '')` },
}

/**
 * By day, model or provider: the whole quarter hours of the period from `usage_totals`
 * ([@lo, @hi) in buckets), the rest at either end from the messages themselves.
 */
function bucketedSql(by: Exclude<UsageGroup, 'session'>): string {
  const { totals, messages } = KEY[by]
  return `${GROUPED} FROM (
      SELECT ${totals} AS key, ${TOTAL_SUMS} FROM usage_totals t WHERE t.bucket >= @lo AND t.bucket < @hi
      UNION ALL ${messagesIn(messages, '@since', `@lo * ${USAGE_BUCKET_MS}`)}
      UNION ALL ${messagesIn(messages, `@hi * ${USAGE_BUCKET_MS}`, '@until')}
    ) GROUP BY 1, 2, 3, 4`
}

/** each chat's answers' span, from `usage_sessions` (bounds: never narrower than the truth) */
const SPANS = `SELECT session_id, min(first_at) AS first_at, max(last_at) AS last_at
  FROM usage_sessions GROUP BY session_id`

/**
 * By chat: a chat whose answers all lie in the period from its totals, one that reaches
 * over an end of it from its messages in the period; with no period, the totals alone.
 */
function sessionSql(whole: boolean): string {
  const totals = `SELECT t.session_id AS key, ${TOTAL_SUMS} FROM usage_sessions t`
  const grouped = whole
    ? `${GROUPED} FROM (${totals}) GROUP BY 1, 2, 3, 4`
    : `${GROUPED} FROM (
      ${totals} WHERE t.session_id IN
        (SELECT session_id FROM (${SPANS}) WHERE first_at >= @since AND last_at < @until)
      UNION ALL ${messagesIn('m.session_id', '@since', '@until')} AND m.session_id IN
        (SELECT session_id FROM (${SPANS}) WHERE NOT (first_at >= @since AND last_at < @until)
          AND last_at >= @since AND first_at < @until)
    ) GROUP BY 1, 2, 3, 4`
  return `SELECT g.*, s.title FROM (${grouped}) g LEFT JOIN sessions s ON s.id = g.key`
}

function sumsSql(by: UsageGroup, whole: boolean): string {
  if (by === 'session') return sessionSql(whole)
  return `SELECT g.*, NULL AS title FROM (${bucketedSql(by)}) g`
}

interface Bounds {
  since: number
  until: number
  lo: number
  hi: number
}

/** the period in ms and its whole quarter hours, [lo, hi) in buckets */
function bounds(q: UsageQuery): Bounds {
  const since = q.since ?? 0
  const until = q.until ?? Number.MAX_SAFE_INTEGER
  const lo = Math.ceil(since / USAGE_BUCKET_MS)
  const hi = Math.max(lo, Math.floor(until / USAGE_BUCKET_MS))
  return { since, until, lo, hi }
}

export class SqliteUsageLedger implements UsageLedger {
  private readonly statements = new Map<string, Statement<[Bounds], SumsRow>>()

  private readonly db: Database
  private readonly checked: SqliteSessionStore['checked']

  /** on the session store's database; damage a query meets is told as the store's own */
  constructor(store: Pick<SqliteSessionStore, 'db' | 'checked'>) {
    this.db = store.db
    this.checked = (fn) => store.checked(fn)
  }

  sums(q: UsageQuery): UsageSums[] {
    const whole = q.since === null && q.until === null
    const name = `${q.by}${whole ? ' whole' : ''}`
    let st = this.statements.get(name)
    if (!st) {
      st = this.checked(() => this.db.prepare<[Bounds], SumsRow>(sumsSql(q.by, whole)))
      this.statements.set(name, st)
    }
    const statement = st
    const rows = this.checked(() => statement.all(bounds(q)))
    const sums = rows.map((r) => ({
      key: String(r.key ?? ''),
      title: r.title,
      provider: r.provider,
      model: r.model,
      priced: r.priced === 1,
      answers: r.answers,
      inputTokens: r.input,
      outputTokens: r.output,
      cachedInputTokens: r.cached,
      reasoningTokens: r.reasoning,
      estimatedAnswers: r.estimated,
      cost: r.cost ?? 0,
    }))
    return q.by === 'day' ? byLocalDay(sums) : sums
  }
}

const pad = (n: number): string => String(n).padStart(2, '0')

/** quarter hours' sums (keyed by bucket) as days' (`YYYY-MM-DD`, the host's time zone) */
function byLocalDay(buckets: UsageSums[]): UsageSums[] {
  const days = new Map<string, UsageSums>()
  for (const b of buckets) {
    const d = new Date(Number(b.key) * USAGE_BUCKET_MS)
    const key = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
    const id = JSON.stringify([key, b.provider, b.model, b.priced])
    const day = days.get(id)
    if (!day) {
      days.set(id, { ...b, key })
      continue
    }
    day.answers += b.answers
    day.inputTokens += b.inputTokens
    day.outputTokens += b.outputTokens
    day.cachedInputTokens += b.cachedInputTokens
    day.reasoningTokens += b.reasoningTokens
    day.estimatedAnswers += b.estimatedAnswers
    day.cost += b.cost
  }
  return [...days.values()]
}
