/**
 * Full-text search over messages (`messages_fts`) and session titles (`sessions_fts`).
 *
 * What the user types is never FTS5 syntax: it is split into words at whitespace, every
 * word is quoted (internal quotes doubled) and all of them must match. A word is kept only
 * if it holds a letter or a digit, so `-`, `*`, `(` or a lone quote just disappear; inside a
 * quoted word the tokenizer splits at punctuation, so `read_file` finds "read_file" and
 * `foo-bar` finds "foo bar" (as a phrase). `AND`, `OR`, `NEAR` are ordinary words.
 *
 * A query in a script written without spaces (Chinese, Japanese, Korean, Thai…) is a
 * substring search instead, newest first: see `search-substring.ts`.
 */
import type { Database, Statement } from 'better-sqlite3'
import type { Role, SearchHit } from '../../../src-preload/contract/dto'
import type { SearchOptions } from '../../core/service-ports'
import { hasNoSpaceScript, markedSnippet, queryTerms, SubstringSearch } from './search-substring'

/** Ranked search ranks only this many of the newest matches, so its cost is bounded. */
export const RANKED_WINDOW = 2_000
/** tokens per snippet */
export const SNIPPET_TOKENS = 12
const MAX_LIMIT = 200

/** The FTS5 query for what the user typed, or null when there is nothing to look for. */
export function toMatchQuery(input: string): string | null {
  const terms = queryTerms(input)
  if (terms.length === 0) return null
  return terms.map((t) => `"${t.replace(/"/g, '""')}"`).join(' ')
}

interface TitleRow {
  id: string
  title: string
  updated_at: number
  snippet: string
}

interface MessageHitRow {
  pk: number
  id: string
  session_id: string
  seq: number
  role: string
  created_at: number
  title: string
}

interface SnippetParams {
  pks: string
  open: string
  close: string
  match: string
  lo: number
  hi: number
}

type Candidate =
  { kind: 'title'; at: number; row: TitleRow } | { kind: 'message'; at: number; pk: number }

export class MessageSearch {
  private readonly newestMessages: Statement<[string, number], { pk: number; at: number }>
  private readonly rankedMessages: Statement<[string, number, number, number], { pk: number }>
  private readonly snippets: Statement<[SnippetParams], { pk: number; snippet: string | null }>
  private readonly messageHit: Statement<[number], MessageHitRow>
  private readonly newestTitles: Statement<[string, string, string, number], TitleRow>
  private readonly rankedTitles: Statement<[string, string, string, number], TitleRow>
  private readonly substring: SubstringSearch

  constructor(db: Database) {
    this.substring = new SubstringSearch(db)
    // FTS5 walks rowids (= messages.pk, which grows with time) backwards and stops at LIMIT.
    this.newestMessages = db.prepare<[string, number], { pk: number; at: number }>(`
      SELECT f.rowid AS pk, m.created_at AS at
      FROM messages_fts f JOIN messages m ON m.pk = f.rowid
      WHERE messages_fts MATCH ? ORDER BY f.rowid DESC LIMIT ?`)
    this.rankedMessages = db.prepare<[string, number, number, number], { pk: number }>(`
      WITH recent AS (
        SELECT rowid AS pk, bm25(messages_fts, 1.0, 0.5) AS score
        FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?
      )
      SELECT pk FROM recent ORDER BY score, pk DESC LIMIT ? OFFSET ?`)
    // Snippets for one page in one walk over the page's rowid range: a `rowid = ?` lookup
    // per hit costs up to ~1 ms for a common word (a seek into a long doclist), a walk
    // ~15 µs a row. In ranked order the range also holds matches that are not on the page:
    // the CASE skips their snippets. (better-sqlite3 binds JS numbers as REAL, and FTS5
    // ignores a REAL rowid constraint next to MATCH: the CASTs are essential.)
    this.snippets = db.prepare<[SnippetParams], { pk: number; snippet: string | null }>(`
      SELECT rowid AS pk,
        CASE WHEN rowid IN (SELECT value FROM json_each(@pks))
          THEN snippet(messages_fts, -1, @open, @close, '…', ${SNIPPET_TOKENS}) END AS snippet
      FROM messages_fts
      WHERE messages_fts MATCH @match
        AND rowid BETWEEN CAST(@lo AS INTEGER) AND CAST(@hi AS INTEGER)
      ORDER BY rowid DESC`)
    this.messageHit = db.prepare<[number], MessageHitRow>(`
      SELECT m.pk, m.id, m.session_id, m.seq, m.role, m.created_at, s.title
      FROM messages m JOIN sessions s ON s.id = m.session_id WHERE m.pk = ?`)
    const titles = (order: string): string => `
      SELECT s.id, s.title, s.updated_at, highlight(sessions_fts, 0, ?, ?) AS snippet
      FROM sessions_fts f JOIN sessions s ON s.pk = f.rowid
      WHERE sessions_fts MATCH ? ORDER BY ${order} LIMIT ?`
    this.newestTitles = db.prepare<[string, string, string, number], TitleRow>(
      titles('s.updated_at DESC, s.pk DESC'),
    )
    this.rankedTitles = db.prepare<[string, string, string, number], TitleRow>(
      titles('f.rank, s.updated_at DESC'),
    )
  }

  search(query: string, opts: SearchOptions): SearchHit[] {
    const match = toMatchQuery(query)
    if (match === null) return []
    const limit = Math.min(Math.max(Math.trunc(opts.limit ?? 20), 0), MAX_LIMIT)
    const offset = Math.max(Math.trunc(opts.offset ?? 0), 0)
    if (limit === 0) return []
    const [open, close] = opts.markers ?? ['[', ']']
    const need = offset + limit

    if (hasNoSpaceScript(query))
      return this.bySubstring(queryTerms(query), offset, need, open, close)
    let page: Candidate[]
    if (opts.order === 'newest') {
      const titles = this.newestTitles.all(open, close, match, need)
      const messages = this.newestMessages.all(match, need)
      page = mergeNewest(
        titles.map((row): Candidate => ({ kind: 'title', at: row.updated_at, row })),
        messages.map((m): Candidate => ({ kind: 'message', at: m.at, pk: m.pk })),
      ).slice(offset, need)
    } else {
      const titles = this.rankedTitles.all(open, close, match, need)
      const titlePage = titles.slice(offset, need)
      const messageOffset = Math.max(0, offset - titles.length)
      const messageLimit = limit - titlePage.length
      const messages =
        messageLimit > 0
          ? this.rankedMessages.all(match, RANKED_WINDOW, messageLimit, messageOffset)
          : []
      page = [
        ...titlePage.map((row): Candidate => ({ kind: 'title', at: row.updated_at, row })),
        ...messages.map((m): Candidate => ({ kind: 'message', at: 0, pk: m.pk })),
      ]
    }
    const pks = page.flatMap((c) => (c.kind === 'message' ? [c.pk] : []))
    const snippets = new Map<number, string>()
    if (pks.length > 0) {
      const rows = this.snippets.all({
        pks: JSON.stringify(pks),
        open,
        close,
        match,
        lo: Math.min(...pks),
        hi: Math.max(...pks),
      })
      for (const r of rows) if (r.snippet !== null) snippets.set(r.pk, r.snippet)
    }
    return this.hits(page, snippets)
  }

  /** newest first, whatever the order asked (substring matches have no useful rank) */
  private bySubstring(
    terms: string[],
    offset: number,
    need: number,
    open: string,
    close: string,
  ): SearchHit[] {
    const titles = this.substring.titles(terms, need).map((t): Candidate => ({
      kind: 'title',
      at: t.updated_at,
      row: { ...t, snippet: markedSnippet(t.title, terms, open, close) },
    }))
    const messages = this.substring
      .messages(terms, need)
      .map((m): Candidate => ({ kind: 'message', at: m.at, pk: m.pk }))
    const page = mergeNewest(titles, messages).slice(offset, need)
    const pks = page.flatMap((c) => (c.kind === 'message' ? [c.pk] : []))
    const snippets = pks.length > 0 ? this.substring.snippets(pks, terms, open, close) : new Map()
    return this.hits(page, snippets)
  }

  private hits(page: Candidate[], snippets: Map<number, string>): SearchHit[] {
    const hits: SearchHit[] = []
    for (const c of page) {
      const hit =
        c.kind === 'title' ? titleHit(c.row) : this.messageHitFor(c.pk, snippets.get(c.pk) ?? '')
      if (hit) hits.push(hit)
    }
    return hits
  }

  private messageHitFor(pk: number, snippet: string): SearchHit | null {
    const row = this.messageHit.get(pk)
    if (!row) return null
    return {
      sessionId: row.session_id,
      sessionTitle: row.title,
      messageId: row.id,
      seq: row.seq,
      role: row.role as Role,
      snippet,
      createdAt: row.created_at,
    }
  }
}

/**
 * Merges title hits (by activity) into message hits (by rowid, i.e. by time) keeping each
 * list's own order; on a tie the title comes first.
 */
function mergeNewest(titles: Candidate[], messages: Candidate[]): Candidate[] {
  const out: Candidate[] = []
  let t = 0
  let m = 0
  while (t < titles.length || m < messages.length) {
    const title = titles[t]
    const message = messages[m]
    if (title && (!message || title.at >= message.at)) {
      out.push(title)
      t++
    } else if (message) {
      out.push(message)
      m++
    }
  }
  return out
}

/** A title hit: the whole title with its matches marked; `createdAt` is the session's last activity. */
function titleHit(row: TitleRow): SearchHit {
  return {
    sessionId: row.id,
    sessionTitle: row.title,
    messageId: null,
    seq: null,
    role: null,
    snippet: row.snippet,
    createdAt: row.updated_at,
  }
}
