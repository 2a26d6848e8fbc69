/**
 * `knowledge.db`, the index of the knowledge sources, beside `cairn.db` and apart from it:
 * indexing never waits for a turn's write lock (nor a turn for indexing), and a damaged
 * index is set aside and rebuilt from its files, never the chats. Its sources (what was
 * added) are read from a damaged file when they still can be, and indexed again.
 *
 * Chunks are in `chunks` with their place in the file; `chunks_fts` is their word index
 * (BM25; `scope` holds one token naming the owner, so a search within a project is an AND
 * of posting lists), `chunks_cjk` a trigram index of the chunks written in scripts without
 * spaces (as chat search does). Both are contentless: the text is kept once, in `chunks`.
 */
import { existsSync, mkdirSync, renameSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'

export const KNOWLEDGE_DB_FILE = 'knowledge.db'
const BUSY_TIMEOUT_MS = 5_000

/** code point ranges of scripts written without spaces (the same as chat search's) */
export const NO_SPACE_GLOB =
  '\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF66-\uFF9F'

const SCHEMA: readonly string[] = [
  // v1
  `
  CREATE TABLE sources (
    pk INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    owner_kind TEXT NOT NULL,
    owner_id TEXT NOT NULL,
    path TEXT NOT NULL,
    kind TEXT NOT NULL,
    added_at INTEGER NOT NULL,
    problem TEXT,
    UNIQUE (owner_kind, owner_id, path)
  ) STRICT;
  CREATE TABLE files (
    pk INTEGER PRIMARY KEY,
    source_pk INTEGER NOT NULL REFERENCES sources (pk) ON DELETE CASCADE,
    path TEXT NOT NULL,
    size INTEGER NOT NULL,
    mtime_ms INTEGER NOT NULL,
    hash TEXT,
    state TEXT NOT NULL,
    reason TEXT,
    chunks INTEGER NOT NULL DEFAULT 0,
    indexed_at INTEGER,
    UNIQUE (source_pk, path)
  ) STRICT;
  CREATE TABLE chunks (
    pk INTEGER PRIMARY KEY,
    file_pk INTEGER NOT NULL REFERENCES files (pk) ON DELETE CASCADE,
    seq INTEGER NOT NULL,
    text TEXT NOT NULL,
    start_line INTEGER NOT NULL,
    end_line INTEGER NOT NULL,
    page INTEGER,
    heading TEXT
  ) STRICT;
  CREATE INDEX chunks_file ON chunks (file_pk, seq);
  CREATE VIRTUAL TABLE chunks_fts USING fts5 (
    text, heading, scope, content = '', contentless_delete = 1,
    tokenize = 'unicode61 remove_diacritics 2'
  );
  CREATE VIRTUAL TABLE chunks_cjk USING fts5 (
    text, content = '', contentless_delete = 1, tokenize = 'trigram remove_diacritics 1'
  );
  CREATE VIRTUAL TABLE chunks_vocab USING fts5vocab (chunks_fts, row);
  CREATE TRIGGER chunks_delete AFTER DELETE ON chunks BEGIN
    DELETE FROM chunks_fts WHERE rowid = old.pk;
    DELETE FROM chunks_cjk WHERE rowid = old.pk;
  END;
  `,
]

export interface OpenKnowledgeOptions {
  nativeBinding?: string
  /** told when a damaged index was set aside (where it went) */
  onDamaged?: (keptAt: string, error: Error) => void
  now?: () => number
}

interface SourceRow {
  id: string
  owner_kind: string
  owner_id: string
  path: string
  kind: string
  added_at: number
}

/** Opens (creating, migrating, or rebuilding when damaged) `<dataDir>/knowledge.db`. */
export function openKnowledgeDb(dataDir: string, o: OpenKnowledgeOptions = {}): Database.Database {
  mkdirSync(dataDir, { recursive: true })
  const file = join(dataDir, KNOWLEDGE_DB_FILE)
  try {
    return openAt(file, o)
  } catch (e) {
    if (!isDamage(e)) throw e
    const sources = readSourcesOf(file, o)
    const keptAt = `${file}.damaged-${(o.now ?? Date.now)()}`
    for (const suffix of ['', '-wal', '-shm'])
      if (existsSync(file + suffix)) renameSync(file + suffix, keptAt + suffix)
    o.onDamaged?.(keptAt, e as Error)
    const db = openAt(file, o)
    const insert = db.prepare(
      `INSERT OR IGNORE INTO sources (id, owner_kind, owner_id, path, kind, added_at)
       VALUES (@id, @owner_kind, @owner_id, @path, @kind, @added_at)`,
    )
    db.transaction(() => sources.forEach((s) => insert.run(s)))()
    return db
  }
}

function openAt(file: string, o: OpenKnowledgeOptions): Database.Database {
  const db = new Database(file, {
    timeout: BUSY_TIMEOUT_MS,
    ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
  })
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    const version = Number(db.pragma('user_version', { simple: true }))
    if (version > SCHEMA.length) {
      throw new Error(
        `${file} was written by a newer version of Cairn (index version ${version}); update Cairn.`,
      )
    }
    db.transaction(() => {
      for (const sql of SCHEMA.slice(version)) db.exec(sql)
      db.pragma(`user_version = ${SCHEMA.length}`)
    })()
    db.prepare('SELECT count(*) FROM sources').get()
  } catch (e) {
    db.close()
    throw e
  }
  return db
}

function isDamage(e: unknown): boolean {
  const code = (e as { code?: unknown }).code
  return code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB'
}

/** What a damaged index still says of its sources (nothing, when that is unreadable too). */
function readSourcesOf(file: string, o: OpenKnowledgeOptions): SourceRow[] {
  try {
    const db = new Database(file, {
      readonly: true,
      ...(o.nativeBinding ? { nativeBinding: o.nativeBinding } : {}),
    })
    try {
      return db
        .prepare<[], SourceRow>(
          'SELECT id, owner_kind, owner_id, path, kind, added_at FROM sources',
        )
        .all()
    } finally {
      db.close()
    }
  } catch {
    return []
  }
}
