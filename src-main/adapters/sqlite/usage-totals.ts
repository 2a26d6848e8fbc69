/**
 * Migration 14: the usage report's running totals, kept by triggers on `messages` so that
 * every way an answer is stored, changed or deleted (a turn, an import, a deleted chat)
 * keeps them exact. Never edit what has shipped: add a migration.
 *
 * - `usage_totals`: by quarter hour (`bucket` = created_at / 900 000, in UTC; every time
 *   zone's offset is a whole number of quarter hours, so a bucket lies in one local day),
 *   provider, model and whether the answer was stored with its cost (`priced`).
 * - `usage_sessions`: by chat, provider, model and `priced`, with the first and last time
 *   an answer was stored. Those two are bounds: a deleted answer does not narrow them, so a
 *   chat is only ever taken to reach further than it does (the report then reads its
 *   messages instead, which is exact).
 *
 * A missing provider or model is stored as '' (the keys are NOT NULL).
 */

/** a quarter hour in ms: the buckets' width */
export const USAGE_BUCKET_MS = 900_000

const SUMS = ['answers', 'input', 'output', 'cached', 'reasoning', 'estimated', 'cost'] as const

/** the sums one message adds, in the order of SUMS */
const adds = (m: 'new' | 'old'): string[] => [
  '1',
  `${m}.input_tokens`,
  `coalesce(${m}.output_tokens, 0)`,
  `coalesce(${m}.cached_tokens, 0)`,
  `coalesce(${m}.reasoning_tokens, 0)`,
  `coalesce((${m}.usage_estimated = 1), 0)`,
  `${m}.cost`,
]

interface Totals {
  table: string
  keys: string[]
  /** the keys' values for a message */
  keyOf: (m: 'new' | 'old') => string[]
  /** more columns set on insert and widened on update */
  extra: { column: string; value: (m: 'new' | 'old') => string; widen: string }[]
}

const common = (m: 'new' | 'old'): string[] => [
  `coalesce(${m}.provider, '')`,
  `coalesce(${m}.model, '')`,
  `(${m}.cost IS NOT NULL)`,
]

const TOTALS: Totals[] = [
  {
    table: 'usage_totals',
    keys: ['bucket', 'provider', 'model', 'priced'],
    keyOf: (m) => [`${m}.created_at / ${USAGE_BUCKET_MS}`, ...common(m)],
    extra: [],
  },
  {
    table: 'usage_sessions',
    keys: ['session_id', 'provider', 'model', 'priced'],
    keyOf: (m) => [`${m}.session_id`, ...common(m)],
    extra: [
      { column: 'first_at', value: (m) => `${m}.created_at`, widen: 'min' },
      { column: 'last_at', value: (m) => `${m}.created_at`, widen: 'max' },
    ],
  },
]

/** adds message `m` to a totals table (its usage known) */
function addTo(t: Totals, m: 'new' | 'old'): string {
  const columns = [...t.keys, ...t.extra.map((e) => e.column), ...SUMS]
  const values = [...t.keyOf(m), ...t.extra.map((e) => e.value(m)), ...adds(m)]
  const set = [
    ...t.extra.map((e) => `${e.column} = ${e.widen}(${e.column}, excluded.${e.column})`),
    ...SUMS.map((s) => `${s} = ${s} + excluded.${s}`),
  ]
  return `INSERT INTO ${t.table} (${columns.join(', ')})
      SELECT ${values.join(', ')} WHERE ${m}.input_tokens IS NOT NULL
      ON CONFLICT (${t.keys.join(', ')}) DO UPDATE SET ${set.join(', ')};`
}

/** takes message `m` out of a totals table; a group left with no answer goes */
function takeFrom(t: Totals, m: 'new' | 'old'): string {
  const match = t.keys.map((k, i) => `${k} = ${t.keyOf(m)[i]}`).join(' AND ')
  const set = SUMS.map((s, i) => `${s} = ${s} - ${adds(m)[i]}`).join(', ')
  return `UPDATE ${t.table} SET ${set} WHERE ${match} AND ${m}.input_tokens IS NOT NULL;
      DELETE FROM ${t.table} WHERE ${match} AND answers <= 0;`
}

const USAGE_COLUMNS = `created_at, session_id, provider, model, input_tokens, output_tokens,
  cached_tokens, reasoning_tokens, usage_estimated, cost`

function table(t: Totals): string {
  const keys = t.keys.map((k) =>
    k === 'provider' || k === 'model' || k === 'session_id'
      ? `${k} TEXT NOT NULL`
      : `${k} INTEGER NOT NULL`,
  )
  return `CREATE TABLE ${t.table} (
      ${[...keys, ...t.extra.map((e) => `${e.column} INTEGER NOT NULL`)].join(', ')},
      answers INTEGER NOT NULL, input INTEGER NOT NULL, output INTEGER NOT NULL,
      cached INTEGER NOT NULL, reasoning INTEGER NOT NULL, estimated INTEGER NOT NULL,
      cost REAL,
      PRIMARY KEY (${t.keys.join(', ')})
    ) STRICT, WITHOUT ROWID;`
}

/** the totals of what is stored already, grouped as a table keeps them */
function backfill(t: Totals): string {
  const keyed = t.keyOf('new').map((v, i) => `${v.replaceAll('new.', '')} AS k${i}`)
  const extra = t.extra.map((e) => `${e.widen}(created_at)`)
  const sums = [
    'count(*)',
    'sum(input_tokens)',
    'sum(coalesce(output_tokens, 0))',
    'sum(coalesce(cached_tokens, 0))',
    'sum(coalesce(reasoning_tokens, 0))',
    'sum(coalesce(usage_estimated = 1, 0))',
    'sum(cost)',
  ]
  const columns = [...t.keys, ...t.extra.map((e) => e.column), ...SUMS]
  return `INSERT INTO ${t.table} (${columns.join(', ')})
    SELECT ${t.keys.map((_, i) => `k${i}`).join(', ')}, ${[...extra, ...sums].join(', ')}
    FROM (SELECT *, ${keyed.join(', ')} FROM messages WHERE input_tokens IS NOT NULL)
    GROUP BY ${t.keys.map((_, i) => `k${i}`).join(', ')};`
}

export const USAGE_TOTALS_SQL = [
  ...TOTALS.map(table),
  ...TOTALS.map(backfill),
  `CREATE INDEX usage_sessions_span ON usage_sessions (first_at, last_at);`,
  `CREATE TRIGGER usage_totals_insert AFTER INSERT ON messages WHEN new.input_tokens IS NOT NULL BEGIN
    ${TOTALS.map((t) => addTo(t, 'new')).join('\n    ')}
  END;`,
  `CREATE TRIGGER usage_totals_delete AFTER DELETE ON messages WHEN old.input_tokens IS NOT NULL BEGIN
    ${TOTALS.map((t) => takeFrom(t, 'old')).join('\n    ')}
  END;`,
  `CREATE TRIGGER usage_totals_update AFTER UPDATE OF ${USAGE_COLUMNS} ON messages
    WHEN old.input_tokens IS NOT NULL OR new.input_tokens IS NOT NULL BEGIN
    ${TOTALS.map((t) => takeFrom(t, 'old')).join('\n    ')}
    ${TOTALS.map((t) => addTo(t, 'new')).join('\n    ')}
  END;`,
].join('\n')
