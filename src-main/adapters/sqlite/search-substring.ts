/**
 * Search for text in scripts written without spaces between words (Chinese, Japanese,
 * Korean, Thai, Lao, Khmer, Myanmar). The word index (unicode61) keeps a run of such
 * characters as one token, so `東京` would never find `東京都に住んでいます`: those queries
 * look for substrings instead.
 *
 * - Messages holding such text are also in `messages_cjk`, a trigram index (migration v5).
 *   A term of three characters or more is a trigram phrase there; shorter terms (`東京`)
 *   filter those matches with LIKE.
 * - A query with only short terms has no trigrams to use: it is a LIKE scan over the newest
 *   `SCAN_WINDOW` messages, so its cost stays bounded.
 * - Titles are few: a LIKE scan over the sessions.
 * - Snippets are cut around the first match here (the trigram index is contentless).
 *
 * Terms are data, never syntax: quoted for MATCH, `%`, `_` and `\` escaped for LIKE.
 */
import type { Database, Statement } from 'better-sqlite3'

/** the scripts whose words are not separated by spaces (same ranges as migration v5) */
const NO_SPACE_SCRIPT =
  /[\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF66-\uFF9F]/u

/** A query with no trigram term scans at most this many of the newest messages. */
export const SCAN_WINDOW = 20_000
/** characters of context before the first match in a snippet, and the snippet's length */
const BEFORE = 24
const SNIPPET_CHARS = 96
const MAX_TERMS = 32

export function hasNoSpaceScript(text: string): boolean {
  return NO_SPACE_SCRIPT.test(text)
}

/** The words of a query: split at whitespace, only those with a letter or a digit. */
export function queryTerms(input: string): string[] {
  return input
    .split(/\s+/u)
    .filter((t) => /[\p{L}\p{N}]/u.test(t))
    .slice(0, MAX_TERMS)
}

function likePattern(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`
}

const charLength = (s: string): number => [...s].length

export interface TitleCandidate {
  id: string
  title: string
  updated_at: number
}

export class SubstringSearch {
  private readonly statements = new Map<string, Statement<unknown[], { pk: number; at: number }>>()
  private readonly titleStatements = new Map<string, Statement<unknown[], TitleCandidate>>()
  private readonly maxPk: Statement<[], { pk: number | null }>
  private readonly texts: Statement<[string], { pk: number; text: string; tool_args: string }>

  constructor(private readonly db: Database) {
    this.maxPk = db.prepare('SELECT max(pk) AS pk FROM messages')
    this.texts = db.prepare(
      `SELECT rowid AS pk, text, tool_args FROM messages_fts
       WHERE rowid IN (SELECT value FROM json_each(?))`,
    )
  }

  /** the newest `limit` messages holding every term: pk and time */
  messages(terms: string[], limit: number): { pk: number; at: number }[] {
    const long = terms.filter((t) => charLength(t) >= 3)
    const short = terms.filter((t) => charLength(t) < 3)
    const like = short.map(() => `(f.text LIKE ? ESCAPE '\\' OR f.tool_args LIKE ? ESCAPE '\\')`)
    const likeArgs = short.flatMap((t) => [likePattern(t), likePattern(t)])
    if (long.length > 0) {
      const sql = `
        SELECT c.rowid AS pk, m.created_at AS at
        FROM messages_cjk c JOIN messages_fts f ON f.rowid = c.rowid JOIN messages m ON m.pk = c.rowid
        WHERE messages_cjk MATCH ? ${like.map((l) => `AND ${l}`).join(' ')}
        ORDER BY c.rowid DESC LIMIT ?`
      const match = long.map((t) => `"${t.replace(/"/g, '""')}"`).join(' ')
      return this.prepared(sql).all(match, ...likeArgs, limit)
    }
    const lo = Math.max(0, (this.maxPk.get()?.pk ?? 0) - SCAN_WINDOW)
    // (FTS5 ignores a REAL rowid constraint: the CAST is essential)
    const sql = `
      SELECT f.rowid AS pk, m.created_at AS at
      FROM messages_fts f JOIN messages m ON m.pk = f.rowid
      WHERE f.rowid > CAST(? AS INTEGER) AND ${like.join(' AND ')}
      ORDER BY f.rowid DESC LIMIT ?`
    return this.prepared(sql).all(lo, ...likeArgs, limit)
  }

  /** sessions whose title holds every term, most recently active first */
  titles(terms: string[], limit: number): TitleCandidate[] {
    const where = terms.map(() => `title LIKE ? ESCAPE '\\'`).join(' AND ')
    const sql = `SELECT id, title, updated_at FROM sessions WHERE ${where}
      ORDER BY updated_at DESC, pk DESC LIMIT ?`
    let stmt = this.titleStatements.get(sql)
    if (!stmt) {
      stmt = this.db.prepare<unknown[], TitleCandidate>(sql)
      this.titleStatements.set(sql, stmt)
    }
    return stmt.all(...terms.map(likePattern), limit)
  }

  /** a snippet per message, cut around its first match */
  snippets(pks: number[], terms: string[], open: string, close: string): Map<number, string> {
    const out = new Map<number, string>()
    for (const r of this.texts.all(JSON.stringify(pks))) {
      const source = findsAny(r.text, terms) || !r.tool_args ? r.text : r.tool_args
      out.set(r.pk, markedSnippet(source, terms, open, close))
    }
    return out
  }

  private prepared(sql: string): Statement<unknown[], { pk: number; at: number }> {
    let stmt = this.statements.get(sql)
    if (!stmt) {
      stmt = this.db.prepare<unknown[], { pk: number; at: number }>(sql)
      this.statements.set(sql, stmt)
    }
    return stmt
  }
}

/** lower case when that keeps every index in place (so matches map back to the text) */
function folded(text: string): string {
  const lower = text.toLowerCase()
  return lower.length === text.length ? lower : text
}

function findsAny(text: string, terms: string[]): boolean {
  const t = folded(text)
  return terms.some((term) => t.includes(folded(term)))
}

/**
 * Up to `SNIPPET_CHARS` characters around the first match of any term, every match in it
 * wrapped in `open`/`close`, `…` where text was cut. Plain string search: linear in the
 * text times the number of terms.
 */
export function markedSnippet(text: string, terms: string[], open: string, close: string): string {
  const hay = folded(text)
  const needles = terms
    .map(folded)
    .filter((t) => t.length > 0)
    .sort((a, b) => b.length - a.length)
  let first = -1
  for (const n of needles) {
    const at = hay.indexOf(n)
    if (at >= 0 && (first < 0 || at < first)) first = at
  }
  let start = first < 0 ? 0 : Math.max(0, first - BEFORE)
  let end = Math.min(text.length, start + SNIPPET_CHARS)
  // never cut a surrogate pair
  if (start > 0 && isLowSurrogate(text.charCodeAt(start))) start--
  if (end < text.length && isLowSurrogate(text.charCodeAt(end))) end++
  let out = start > 0 ? '…' : ''
  let i = start
  let plain = start
  while (i < end) {
    const n = needles.find((x) => hay.startsWith(x, i))
    if (!n) {
      i++
      continue
    }
    const stop = Math.min(i + n.length, text.length)
    out += text.slice(plain, i) + open + text.slice(i, stop) + close
    i = plain = stop
    if (end < stop) end = stop
  }
  out += text.slice(plain, end)
  if (end < text.length) out += '…'
  return out
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff
}
