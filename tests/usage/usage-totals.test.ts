/**
 * The usage report's running totals (migration 14, usage-totals.ts): whatever is stored,
 * changed or deleted, and whatever the period (cutting through quarter hours and chats or
 * not), the ledger's sums are those of the messages themselves, summed here one by one.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { SqliteUsageLedger } from '../../src-main/adapters/sqlite/usage-ledger'
import { USAGE_BUCKET_MS } from '../../src-main/adapters/sqlite/usage-totals'
import type { UsageQuery, UsageSums } from '../../src-main/core/service-ports'
import { USAGE_GROUPS, type UsageGroup } from '../../src-preload/contract/usage'
import { databaseAtVersion } from '../support/session-store'

let dir: string
let store: SqliteSessionStore | null = null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-usage-totals-'))
})
afterEach(() => {
  store?.close()
  store = null
  rmSync(dir, { recursive: true, force: true })
})

const DAY = 86_400_000
const T0 = Date.UTC(2026, 2, 1, 10, 7, 13)
const MODELS = [
  ['https://api.openai.com/v1', 'gpt-4o'],
  ['https://openrouter.ai/api/v1', 'anthropic/claude-sonnet-4'],
  ['http://127.0.0.1:11434/v1', 'llama3.2'],
] as const

interface Row {
  created_at: number
  session_id: string
  provider: string | null
  model: string | null
  input_tokens: number
  output_tokens: number | null
  cached_tokens: number | null
  reasoning_tokens: number | null
  usage_estimated: number | null
  cost: number | null
}

const pad = (n: number): string => String(n).padStart(2, '0')
const localDay = (ms: number): string => {
  const d = new Date(ms)
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

/** the sums as the messages give them, one by one, in a comparable order */
function expected(s: SqliteSessionStore, q: UsageQuery): Record<string, unknown>[] {
  const rows = s.db
    .prepare<[], Row>(`SELECT * FROM messages WHERE input_tokens IS NOT NULL`)
    .all()
    .filter((r) => r.created_at >= (q.since ?? 0) && r.created_at < (q.until ?? Infinity))
  const groups = new Map<string, Record<string, number | string | boolean | null>>()
  for (const r of rows) {
    const key = {
      day: localDay(r.created_at),
      model: r.model ?? '',
      provider: r.provider ?? '',
      session: r.session_id,
    }[q.by]
    const id = JSON.stringify([key, r.provider, r.model, r.cost !== null])
    const g = groups.get(id) ?? {
      key,
      provider: r.provider,
      model: r.model,
      priced: r.cost !== null,
      answers: 0,
      inputTokens: 0,
      outputTokens: 0,
      cachedInputTokens: 0,
      reasoningTokens: 0,
      estimatedAnswers: 0,
      cost: 0,
    }
    g.answers = (g.answers as number) + 1
    g.inputTokens = (g.inputTokens as number) + r.input_tokens
    g.outputTokens = (g.outputTokens as number) + (r.output_tokens ?? 0)
    g.cachedInputTokens = (g.cachedInputTokens as number) + (r.cached_tokens ?? 0)
    g.reasoningTokens = (g.reasoningTokens as number) + (r.reasoning_tokens ?? 0)
    g.estimatedAnswers = (g.estimatedAnswers as number) + (r.usage_estimated === 1 ? 1 : 0)
    g.cost = (g.cost as number) + (r.cost ?? 0)
    groups.set(id, g)
  }
  return [...groups.values()].map(round).sort(byId)
}

function round(g: Record<string, unknown>): Record<string, unknown> {
  return { ...g, cost: Math.round((g.cost as number) * 1e9) / 1e9 }
}
const byId = (a: Record<string, unknown>, b: Record<string, unknown>): number =>
  JSON.stringify([a.key, a.provider, a.model, a.priced]).localeCompare(
    JSON.stringify([b.key, b.provider, b.model, b.priced]),
  )

function actual(s: SqliteSessionStore, q: UsageQuery): Record<string, unknown>[] {
  return new SqliteUsageLedger(s)
    .sums(q)
    .map(({ title: _title, ...rest }: UsageSums) => round(rest))
    .sort(byId)
}

/** periods that cut through quarter hours and chats, lie inside one quarter hour, or are whole */
const PERIODS: [number | null, number | null][] = [
  [null, null],
  [T0 + 3 * DAY + 123_457, null],
  [null, T0 + 9 * DAY + 7_777],
  [T0 + 2 * DAY, T0 + 12 * DAY + 450_001],
  [T0 + 5 * DAY + 60_000, T0 + 5 * DAY + 120_000],
  [Math.ceil(T0 / USAGE_BUCKET_MS) * USAGE_BUCKET_MS, T0 + 30 * DAY],
  [T0 + 100 * DAY, null],
]

function expectLedgerMatches(s: SqliteSessionStore): void {
  for (const [since, until] of PERIODS)
    for (const by of USAGE_GROUPS as readonly UsageGroup[]) {
      const q = { since, until, by }
      expect(actual(s, q), JSON.stringify(q)).toEqual(expected(s, q))
    }
}

/** chats of answers spread over three weeks, some priced, some estimated, one with no model */
function fill(s: SqliteSessionStore): string[] {
  const ids: string[] = []
  for (let c = 0; c < 6; c++) {
    const [provider, model] = MODELS[c % MODELS.length]!
    const session = s.createSession({ provider, model })
    ids.push(session.id)
    for (let i = 0; i < 12; i++) {
      s.appendMessage(session.id, { role: 'user', content: `q${i}` })
      s.appendMessage(session.id, {
        role: 'assistant',
        content: `a${i}`,
        provider,
        model: c === 5 && i === 3 ? undefined : model,
        usage: {
          inputTokens: 100 * (i + 1) + c,
          outputTokens: 30 + i,
          ...(i % 3 === 0 ? { cachedInputTokens: 50 } : {}),
          ...(i % 4 === 0 ? { reasoningTokens: 7 } : {}),
          estimated: i % 5 === 0,
        },
        ...(i % 2 === 0
          ? { price: { input: 2.5, output: 10, source: 'table' as const }, cost: 0.001 * (i + c) }
          : {}),
      })
    }
  }
  // a chat a few days long, chats days apart, answers minutes apart
  s.db.exec(`UPDATE messages SET created_at = ${T0} + (pk % 7) * 420000
    + (pk / 9) * ${DAY / 3} + (pk % 5) * ${DAY}`)
  return ids
}

describe('usage totals (migration 14)', () => {
  it('give the sums of the messages for every period and grouping', () => {
    store = createSessionStore(dir)
    fill(store)
    expect(store.db.prepare('SELECT count(*) AS n FROM usage_totals').get()).toMatchObject({
      n: expect.any(Number),
    })
    expectLedgerMatches(store)
  })

  it('follow a deleted chat, a deleted answer and an answer changed in place', () => {
    store = createSessionStore(dir)
    const ids = fill(store)
    store.deleteSession(ids[1]!)
    store.db.exec(
      `DELETE FROM messages WHERE pk = (SELECT max(pk) FROM messages WHERE input_tokens IS NOT NULL)`,
    )
    store.db.exec(`UPDATE messages SET model = 'renamed', cost = NULL, input_tokens = 5
      WHERE pk = (SELECT min(pk) FROM messages WHERE input_tokens IS NOT NULL)`)
    expectLedgerMatches(store)
    store.db.exec(`DELETE FROM messages`)
    expect(store.db.prepare('SELECT count(*) AS n FROM usage_totals').get()).toEqual({ n: 0 })
    expect(store.db.prepare('SELECT count(*) AS n FROM usage_sessions').get()).toEqual({ n: 0 })
  })

  it('are built from what a version-13 database holds when it is migrated', () => {
    const db = databaseAtVersion(dir, 13)
    db.prepare(
      `INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('old', 'Old', 1, 2)`,
    ).run()
    const insert = db.prepare(
      `INSERT INTO messages (id, session_id, seq, kind, role, content, status, provider, model,
         input_tokens, output_tokens, cached_tokens, usage_estimated, cost, created_at)
       VALUES (?, 'old', ?, 'message', 'assistant', 'a', 'complete', ?, ?, ?, 20, ?, 0, ?, ?)`,
    )
    for (let i = 1; i <= 40; i++)
      insert.run(
        `m${i}`,
        i,
        MODELS[i % 3]![0],
        MODELS[i % 3]![1],
        10 * i,
        i % 2 ? 5 : null,
        i % 3 ? 0.01 : null,
        T0 + i * 3_600_000,
      )
    db.close()
    store = createSessionStore(dir)
    expect(store.db.prepare('SELECT sum(answers) AS n FROM usage_sessions').get()).toEqual({
      n: 40,
    })
    expectLedgerMatches(store)
  })
})
