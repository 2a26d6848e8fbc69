/**
 * The index's writes, each file's in one transaction with its chunks and their word and
 * trigram rows, so an error (a full disk, a file gone) leaves every file as it was before or
 * as it is now, never half. Files are written in batches (`batch`) for speed: a batch that
 * fails is rolled back whole and says so.
 */
import { createHash } from 'node:crypto'
import { sep } from 'node:path'
import type { Database, Statement } from 'better-sqlite3'
import type { KnowledgeFileState, KnowledgeOwner } from '../../../src-preload/contract/knowledge'
import type { Chunk } from './chunker'
import { NO_SPACE_GLOB } from './knowledge-db'

export interface FileRow {
  pk: number
  path: string
  size: number
  mtime_ms: number
  hash: string | null
  state: KnowledgeFileState
}

export interface FileMeta {
  path: string
  size: number
  mtimeMs: number
  hash: string | null
}

export type FileOutcome =
  { state: 'indexed'; chunks: readonly Chunk[] } | { state: 'skipped' | 'failed'; reason: string }

/** The token that names an owner in `chunks_fts.scope`. */
export function scopeToken(owner: KnowledgeOwner): string {
  return `s${createHash('sha256').update(`${owner.kind}:${owner.id}`).digest('hex').slice(0, 24)}`
}

const NO_SPACE = new RegExp(`[${NO_SPACE_GLOB}]`, 'u')

export class IndexWriter {
  private readonly q: {
    files: Statement<[number], FileRow>
    file: Statement<[number, string], FileRow>
    upsert: Statement<
      [number, string, number, number, string | null, string, string | null, number, number]
    >
    pkOf: Statement<[number, string], { pk: number }>
    clearChunks: Statement<[number]>
    chunk: Statement<[number, number, string, number, number, number | null, string | null]>
    fts: Statement<[number, string, string, string]>
    cjk: Statement<[number, string]>
    touch: Statement<[number, number]>
    remove: Statement<[number]>
    removeAt: Statement<[{ source: number; path: string; prefix: string }]>
    problem: Statement<[string | null, number]>
  }

  constructor(
    private readonly db: Database,
    private readonly now: () => number = Date.now,
  ) {
    this.q = {
      files: db.prepare(
        'SELECT pk, path, size, mtime_ms, hash, state FROM files WHERE source_pk = ?',
      ),
      file: db.prepare(
        'SELECT pk, path, size, mtime_ms, hash, state FROM files WHERE source_pk = ? AND path = ?',
      ),
      upsert: db.prepare(`
        INSERT INTO files (source_pk, path, size, mtime_ms, hash, state, reason, chunks, indexed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
        ON CONFLICT (source_pk, path) DO UPDATE SET size = excluded.size,
          mtime_ms = excluded.mtime_ms, hash = excluded.hash, state = excluded.state,
          reason = excluded.reason, chunks = excluded.chunks, indexed_at = excluded.indexed_at`),
      pkOf: db.prepare('SELECT pk FROM files WHERE source_pk = ? AND path = ?'),
      clearChunks: db.prepare('DELETE FROM chunks WHERE file_pk = ?'),
      chunk: db.prepare(
        `INSERT INTO chunks (file_pk, seq, text, start_line, end_line, page, heading)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ),
      fts: db.prepare('INSERT INTO chunks_fts (rowid, text, heading, scope) VALUES (?, ?, ?, ?)'),
      cjk: db.prepare('INSERT INTO chunks_cjk (rowid, text) VALUES (?, ?)'),
      touch: db.prepare('UPDATE files SET mtime_ms = ? WHERE pk = ?'),
      remove: db.prepare('DELETE FROM files WHERE pk = ?'),
      removeAt: db.prepare(
        'DELETE FROM files WHERE source_pk = @source AND (path = @path OR substr(path, 1, length(@prefix)) = @prefix)',
      ),
      problem: db.prepare('UPDATE sources SET problem = ? WHERE pk = ?'),
    }
  }

  files(sourcePk: number): Map<string, FileRow> {
    return new Map(this.q.files.all(sourcePk).map((r) => [r.path, r]))
  }

  file(sourcePk: number, path: string): FileRow | undefined {
    return this.q.file.get(sourcePk, path)
  }

  /** Runs `fn` in one transaction: all of its writes land, or none. */
  batch(fn: () => void): void {
    this.db.transaction(fn)()
  }

  /** The file's row and its chunks, replacing what was there. */
  put(sourcePk: number, scope: string, meta: FileMeta, outcome: FileOutcome): void {
    const chunks = outcome.state === 'indexed' ? outcome.chunks : []
    const reason = outcome.state === 'indexed' ? null : outcome.reason
    this.q.upsert.run(
      sourcePk,
      meta.path,
      meta.size,
      Math.round(meta.mtimeMs),
      meta.hash,
      outcome.state,
      reason,
      chunks.length,
      this.now(),
    )
    const filePk = this.q.pkOf.get(sourcePk, meta.path)?.pk
    if (filePk === undefined) throw new Error(`the row of ${meta.path} was not written`)
    this.q.clearChunks.run(filePk)
    chunks.forEach((c, seq) => {
      const pk = Number(
        this.q.chunk.run(filePk, seq, c.text, c.startLine, c.endLine, c.page, c.heading)
          .lastInsertRowid,
      )
      this.q.fts.run(pk, c.text, c.heading ?? '', scope)
      if (NO_SPACE.test(c.text)) this.q.cjk.run(pk, c.text)
    })
  }

  /** The file is unchanged (same content), only its time moved. */
  touch(pk: number, mtimeMs: number): void {
    this.q.touch.run(Math.round(mtimeMs), pk)
  }

  remove(pk: number): void {
    this.q.remove.run(pk)
  }

  /** The file at `path`, or every file under the folder at `path` (it is gone). */
  removeAt(sourcePk: number, path: string): void {
    this.q.removeAt.run({ source: sourcePk, path, prefix: path.endsWith(sep) ? path : path + sep })
  }

  setProblem(sourcePk: number, problem: string | null): void {
    this.q.problem.run(problem, sourcePk)
  }
}
