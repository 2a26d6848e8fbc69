/**
 * BM25 search over the chunks of one owner's sources. What the user (or the model) asks is
 * never FTS5 syntax: its words are quoted and joined with OR (a question's words rarely all
 * stand in one chunk; BM25 ranks the chunks holding more of the rarer ones first), ANDed
 * with the owner's scope token. Only the rarer words are looked for (`POSTINGS_BUDGET`, by
 * each word's chunk count from the index's vocabulary, remembered until the index changes),
 * so a question full of common words costs what its rare ones do. Words in a script written without spaces are looked up as
 * substrings in the trigram index (three characters or more) or with LIKE over a bounded
 * window (shorter), as chat search does; the two lists are fused by reciprocal rank.
 */
import type { Database, Statement } from 'better-sqlite3'
import type {
  ChunkLocation,
  KnowledgeHit,
  KnowledgeOwner,
} from '../../../src-preload/contract/knowledge'
import { hasNoSpaceScript, queryTerms } from '../sqlite/search-substring'
import { scopeToken } from './index-writer'

/**
 * A question's words are looked up rarest first until their chunks add up to this many:
 * the commonest words (in most chunks) add little to BM25's ranking and all of the cost.
 */
const POSTINGS_BUDGET = 3_000
/** chunks of scripts without spaces a short term scans at most (the newest) */
const SCAN_WINDOW = 20_000
/** reciprocal rank fusion's constant */
const RRF_K = 60

export interface Ranked {
  pk: number
  score: number
}

interface ChunkRow {
  pk: number
  path: string
  text: string
  start_line: number
  end_line: number
  page: number | null
  heading: string | null
}

const quote = (t: string): string => `"${t.replace(/"/g, '""')}"`
const charLength = (s: string): number => [...s].length
const likePattern = (t: string): string => `%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`

export class KnowledgeSearch {
  private readonly words: Statement<[string, number], Ranked>
  private readonly trigrams: Statement<[string, string, string, number], Ranked>
  private readonly rows: Statement<[string], ChunkRow>
  private readonly maxPk: Statement<[], { pk: number | null }>
  private readonly likes = new Map<number, Statement<unknown[], Ranked>>()
  private readonly docCount: Statement<[string], { doc: number }>
  private readonly counts = new Map<string, number>()

  constructor(private readonly db: Database) {
    this.words = db.prepare(`
      SELECT rowid AS pk, -bm25(chunks_fts, 1.0, 0.5, 0.0) AS score
      FROM chunks_fts WHERE chunks_fts MATCH ? ORDER BY bm25(chunks_fts, 1.0, 0.5, 0.0) LIMIT ?`)
    this.trigrams = db.prepare(`
      SELECT k.rowid AS pk, -bm25(chunks_cjk) AS score
      FROM chunks_cjk k JOIN chunks c ON c.pk = k.rowid JOIN files f ON f.pk = c.file_pk
        JOIN sources s ON s.pk = f.source_pk
      WHERE chunks_cjk MATCH ? AND s.owner_kind = ? AND s.owner_id = ?
      ORDER BY bm25(chunks_cjk) LIMIT ?`)
    this.rows = db.prepare(`
      SELECT c.pk, f.path, c.text, c.start_line, c.end_line, c.page, c.heading
      FROM chunks c JOIN files f ON f.pk = c.file_pk
      WHERE c.pk IN (SELECT value FROM json_each(?))`)
    this.maxPk = db.prepare('SELECT max(pk) AS pk FROM chunks')
    this.docCount = db.prepare('SELECT doc FROM chunks_vocab WHERE term = ?')
  }

  /** the index changed: the words' chunk counts are read again */
  invalidate(): void {
    this.counts.clear()
  }

  /** The rarest words, up to the budget of chunks (always the rarest one). */
  private rarest(terms: readonly string[]): string[] {
    const counted = terms.map((t) => ({ t, n: this.chunksWith(t) })).sort((a, b) => a.n - b.n)
    const kept: string[] = []
    let total = 0
    for (const { t, n } of counted) {
      if (kept.length > 0 && total + n > POSTINGS_BUDGET) break
      kept.push(t)
      total += n
    }
    return kept
  }

  /** how many chunks hold the word (0 when the vocabulary does not have it as one token) */
  private chunksWith(term: string): number {
    const key = term.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase()
    let n = this.counts.get(key)
    if (n === undefined) {
      n = this.docCount.get(key)?.doc ?? 0
      if (this.counts.size > 10_000) this.counts.clear()
      this.counts.set(key, n)
    }
    return n
  }

  /** The best `limit` chunks of the owner's sources for `query`, best first. */
  bm25(owner: KnowledgeOwner, query: string, limit: number): Ranked[] {
    const terms = queryTerms(query)
    if (terms.length === 0) return []
    const spaced = terms.filter((t) => !hasNoSpaceScript(t))
    const unspaced = terms.filter((t) => hasNoSpaceScript(t))
    const lists: Ranked[][] = []
    if (spaced.length > 0) {
      const match = `scope:${scopeToken(owner)} AND (${this.rarest(spaced).map(quote).join(' OR ')})`
      lists.push(this.words.all(match, limit))
    }
    if (unspaced.length > 0) lists.push(this.substrings(owner, unspaced, limit))
    return lists.length === 1 ? (lists[0] ?? []) : fuse(lists, limit)
  }

  /** The chunks themselves, in the order of `ranked`. */
  hits(ranked: readonly Ranked[]): KnowledgeHit[] {
    const rows = new Map(
      this.rows.all(JSON.stringify(ranked.map((r) => r.pk))).map((r) => [r.pk, r]),
    )
    return ranked.flatMap((r) => {
      const row = rows.get(r.pk)
      return row
        ? [
            {
              file: row.path,
              location: locationOf(row),
              heading: row.heading,
              text: row.text,
              score: r.score,
            },
          ]
        : []
    })
  }

  private substrings(owner: KnowledgeOwner, terms: string[], limit: number): Ranked[] {
    const long = terms.filter((t) => charLength(t) >= 3)
    const short = terms.filter((t) => charLength(t) < 3)
    const lists: Ranked[][] = []
    if (long.length > 0)
      lists.push(this.trigrams.all(long.map(quote).join(' OR '), owner.kind, owner.id, limit))
    if (short.length > 0) {
      const lo = Math.max(0, (this.maxPk.get()?.pk ?? 0) - SCAN_WINDOW)
      lists.push(
        this.like(short.length).all(lo, owner.kind, owner.id, ...short.map(likePattern), limit),
      )
    }
    return lists.length === 1 ? (lists[0] ?? []) : fuse(lists, limit)
  }

  private like(n: number): Statement<unknown[], Ranked> {
    let stmt = this.likes.get(n)
    if (!stmt) {
      const any = Array.from({ length: n }, () => `c.text LIKE ? ESCAPE '\\'`).join(' OR ')
      stmt = this.db.prepare<unknown[], Ranked>(`
        SELECT c.pk, 1.0 AS score FROM chunks_cjk k JOIN chunks c ON c.pk = k.rowid
          JOIN files f ON f.pk = c.file_pk JOIN sources s ON s.pk = f.source_pk
        WHERE k.rowid > CAST(? AS INTEGER) AND s.owner_kind = ? AND s.owner_id = ? AND (${any})
        ORDER BY c.pk DESC LIMIT ?`)
      this.likes.set(n, stmt)
    }
    return stmt
  }
}

/** Reciprocal rank fusion: each list's rank r adds 1 / (RRF_K + r). */
export function fuse(lists: readonly (readonly Ranked[])[], limit: number): Ranked[] {
  const scores = new Map<number, number>()
  for (const list of lists)
    list.forEach((r, i) => scores.set(r.pk, (scores.get(r.pk) ?? 0) + 1 / (RRF_K + i + 1)))
  return [...scores]
    .map(([pk, score]) => ({ pk, score }))
    .sort((a, b) => b.score - a.score)
    .slice(0, limit)
}

function locationOf(row: ChunkRow): ChunkLocation {
  return row.page !== null
    ? { page: row.page }
    : { startLine: row.start_line, endLine: row.end_line }
}
