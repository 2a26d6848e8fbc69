/**
 * The usage report's sums on SQLite: one grouped query over the `messages_usage` index
 * (migration 11), which holds every column it reads, so the table itself is not touched.
 */
import type { Database, Statement } from 'better-sqlite3'
import type { UsageGroup } from '../../../src-preload/contract/usage'
import type { UsageLedger, UsageQuery, UsageSums } from '../../core/service-ports'
import type { SqliteSessionStore } from './session-store'

interface SumsRow {
  key: string | null
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

/** what a group's key is, as SQL over the messages (`m`) */
const KEY: Record<UsageGroup, string> = {
  day: `date(m.created_at / 1000, 'unixepoch', 'localtime')`,
  model: `coalesce(m.model, '')`,
  provider: `coalesce(m.provider, '')`,
  session: 'm.session_id',
}

function sumsSql(by: UsageGroup): string {
  const grouped = `SELECT ${KEY[by]} AS key, m.provider, m.model, m.cost IS NOT NULL AS priced,
      count(*) AS answers, sum(m.input_tokens) AS input, sum(m.output_tokens) AS output,
      sum(coalesce(m.cached_tokens, 0)) AS cached, sum(coalesce(m.reasoning_tokens, 0)) AS reasoning,
      sum(m.usage_estimated = 1) AS estimated, sum(m.cost) AS cost
    FROM messages m INDEXED BY messages_usage
    WHERE m.input_tokens IS NOT NULL AND m.created_at >= @since AND m.created_at < @until
    GROUP BY 1, 2, 3, 4`
  if (by !== 'session') return `SELECT g.*, NULL AS title FROM (${grouped}) g`
  return `SELECT g.*, s.title FROM (${grouped}) g LEFT JOIN sessions s ON s.id = g.key`
}

export class SqliteUsageLedger implements UsageLedger {
  private readonly statements = new Map<
    UsageGroup,
    Statement<[{ since: number; until: number }], SumsRow>
  >()

  private readonly db: Database
  private readonly checked: SqliteSessionStore['checked']

  /** on the session store's database; damage a query meets is told as the store's own */
  constructor(store: Pick<SqliteSessionStore, 'db' | 'checked'>) {
    this.db = store.db
    this.checked = (fn) => store.checked(fn)
  }

  sums(q: UsageQuery): UsageSums[] {
    let st = this.statements.get(q.by)
    if (!st) {
      st = this.checked(() =>
        this.db.prepare<[{ since: number; until: number }], SumsRow>(sumsSql(q.by)),
      )
      this.statements.set(q.by, st)
    }
    const statement = st
    const rows = this.checked(() =>
      statement.all({ since: q.since ?? 0, until: q.until ?? Number.MAX_SAFE_INTEGER }),
    )
    return rows.map((r) => ({
      key: r.key ?? '',
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
  }
}
