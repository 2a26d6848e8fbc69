/**
 * Versioned schema migrations, tracked in `PRAGMA user_version`. Before an existing,
 * non-empty database is migrated, a consistent copy of it is written beside it
 * (`cairn.db.bak-v<old>-<timestamp>`).
 */
import { existsSync } from 'node:fs'
import type { Database } from 'better-sqlite3'
import { ExpectedError } from '../../core/errors'
import { deriveParents } from '../../core/agent/history-tree'
import { ASSISTANT_SEEDS } from './assistant-seeds'
import { USAGE_TOTALS_SQL } from './usage-totals'

export interface Migration {
  /** the `user_version` after this migration */
  version: number
  description: string
  sql: string
  /** what SQL alone cannot do, run after `sql` in the same transaction */
  run?: (db: Database) => void
}

/** a value as an SQL string literal */
const sqlText = (value: string): string => `'${value.replaceAll("'", "''")}'`

/** the seeded assistants' rows (v9): what the user sets, the name in its own column */
const SEED_ASSISTANTS = ASSISTANT_SEEDS.map(({ id, origin, draft: { name, ...data } }) =>
  [sqlText(id), sqlText(name), sqlText(origin), sqlText(JSON.stringify(data))].join(', '),
)

const TOKENIZE = `tokenize = 'unicode61 remove_diacritics 2'`
/** code point ranges of scripts written without spaces between words (as of v5; never edit) */
const NO_SPACE_GLOB =
  '\u0E00-\u0EFF\u1000-\u109F\u1780-\u17FF\u3040-\u30FF\u3400-\u4DBF\u4E00-\u9FFF\uAC00-\uD7AF\uF900-\uFAFF\uFF66-\uFF9F'

/**
 * Never edit a migration that has shipped: add one. Tables are STRICT; JSON lives in TEXT
 * columns. Every table has an INTEGER PRIMARY KEY `pk` (a stable rowid, which FTS rows
 * share) and a random text `id` for the outside world.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'sessions, messages, message search index',
    sql: `
      CREATE TABLE sessions (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        title TEXT NOT NULL DEFAULT '',
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL,
        provider TEXT,
        model TEXT,
        workspace TEXT,
        system_prompt TEXT,
        todos TEXT NOT NULL DEFAULT '[]',
        input_tokens INTEGER NOT NULL DEFAULT 0,
        output_tokens INTEGER NOT NULL DEFAULT 0,
        pinned INTEGER NOT NULL DEFAULT 0,
        archived INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE INDEX sessions_list ON sessions (archived, pinned, updated_at);

      -- pk grows with time: the search index walks it backwards for newest-first results.
      CREATE TABLE messages (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        session_id TEXT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
        seq INTEGER NOT NULL CHECK (seq >= 1),
        turn_id TEXT,
        kind TEXT NOT NULL,
        role TEXT NOT NULL,
        content TEXT NOT NULL,
        parts TEXT,
        reasoning TEXT,
        provider_extras TEXT,
        tool_calls TEXT,
        tool_call_id TEXT,
        tool_name TEXT,
        provider TEXT,
        model TEXT,
        status TEXT NOT NULL,
        failure_kind TEXT,
        input_tokens INTEGER,
        output_tokens INTEGER,
        usage_estimated INTEGER,
        created_at INTEGER NOT NULL,
        UNIQUE (session_id, seq)
      ) STRICT;

      -- rowid = messages.pk. Rows are written by the store (the indexed text is derived
      -- in code: base64 stripped, tool arguments added); deletes follow the messages.
      CREATE VIRTUAL TABLE messages_fts USING fts5 (text, tool_args, ${TOKENIZE});
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_fts WHERE rowid = old.pk;
      END;
    `,
  },
  {
    version: 2,
    description: 'session titles are searchable',
    sql: `
      CREATE VIRTUAL TABLE sessions_fts USING fts5 (title, ${TOKENIZE});
      INSERT INTO sessions_fts (rowid, title) SELECT pk, title FROM sessions WHERE title <> '';
      CREATE TRIGGER sessions_fts_insert AFTER INSERT ON sessions WHEN new.title <> '' BEGIN
        INSERT INTO sessions_fts (rowid, title) VALUES (new.pk, new.title);
      END;
      CREATE TRIGGER sessions_fts_update AFTER UPDATE OF title ON sessions
        WHEN old.title IS NOT new.title BEGIN
        DELETE FROM sessions_fts WHERE rowid = old.pk;
        INSERT INTO sessions_fts (rowid, title) SELECT new.pk, new.title WHERE new.title <> '';
      END;
      CREATE TRIGGER sessions_fts_delete AFTER DELETE ON sessions BEGIN
        DELETE FROM sessions_fts WHERE rowid = old.pk;
      END;
    `,
  },
  {
    version: 3,
    description: 'tool results remember whether the tool reported an error',
    sql: `ALTER TABLE messages ADD COLUMN is_error INTEGER NOT NULL DEFAULT 0;`,
  },
  {
    version: 4,
    description:
      'replaced user messages (earlier versions stay), tool and reasoning durations, who decided a tool call',
    sql: `
      ALTER TABLE messages ADD COLUMN supersedes INTEGER;
      ALTER TABLE messages ADD COLUMN duration_ms INTEGER;
      ALTER TABLE messages ADD COLUMN reasoning_ms INTEGER;
      ALTER TABLE messages ADD COLUMN decided_by TEXT;
    `,
  },
  {
    version: 5,
    description:
      'substring search for scripts written without spaces (Chinese, Japanese, Korean, Thai…)',
    // A trigram index of only the messages that hold such text (the word index cannot split
    // 東京都 into words). Contentless: the text stays in messages_fts. The character ranges
    // match NO_SPACE_SCRIPT in search-substring.ts.
    sql: `
      CREATE VIRTUAL TABLE messages_cjk USING fts5 (
        text, tool_args, content = '', contentless_delete = 1,
        tokenize = 'trigram remove_diacritics 1'
      );
      INSERT INTO messages_cjk (rowid, text, tool_args)
        SELECT rowid, text, tool_args FROM messages_fts
        WHERE (text || ' ' || tool_args) GLOB '*[${NO_SPACE_GLOB}]*';
      CREATE TRIGGER messages_cjk_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_cjk WHERE rowid = old.pk;
      END;
    `,
  },
  {
    version: 6,
    description: 'which process runs a session turn (one turn per session across processes)',
    // See session-leases.ts. No foreign key: a lease may outlive its session's row briefly.
    sql: `
      CREATE TABLE session_leases (
        session_id TEXT PRIMARY KEY,
        owner_pid INTEGER NOT NULL,
        owner_instance TEXT NOT NULL,
        owner_host TEXT NOT NULL,
        owner_kind TEXT NOT NULL,
        acquired_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 7,
    description: 'the model the server says answered, when it is not the one asked for',
    sql: `ALTER TABLE messages ADD COLUMN served_model TEXT;`,
  },
  {
    version: 8,
    description: 'pinned messages (kept in context) and the messages a summary stands in for',
    sql: `
      ALTER TABLE messages ADD COLUMN pinned INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE messages ADD COLUMN covers_from INTEGER;
      ALTER TABLE messages ADD COLUMN covers_to INTEGER;
    `,
  },
  {
    version: 9,
    description:
      'assistants (the default one and three built-in ones); sessions record theirs and keep a copy of it',
    // `data`: the assistant's fields but its name, as JSON (checked with the contract's
    // schema when read). `assistant_snapshot`: the whole assistant a session last ran with,
    // so that it keeps working when the assistant is deleted. Sessions from before run with
    // the default assistant, which reproduces how they ran.
    sql: `
      CREATE TABLE assistants (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        origin TEXT NOT NULL,
        data TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX assistants_name ON assistants (name COLLATE NOCASE);
      INSERT INTO assistants (id, name, origin, data, created_at, updated_at)
        SELECT column1, column2, column3, column4,
          CAST(strftime('%s', 'now') AS INTEGER) * 1000, CAST(strftime('%s', 'now') AS INTEGER) * 1000
        FROM (VALUES ${SEED_ASSISTANTS.map((row) => `(${row})`).join(', ')});
      ALTER TABLE sessions ADD COLUMN assistant_id TEXT;
      ALTER TABLE sessions ADD COLUMN assistant_snapshot TEXT;
      UPDATE sessions SET assistant_id = 'default';
    `,
  },
  {
    version: 10,
    description:
      'a conversation tree: each message knows the one it follows, a session its open branch and where it came from (an import, a branch of another chat)',
    // parent_seq: the seq of the message this one follows in its session (null: the first);
    // leaf_seq: where the open branch ends. source: 'chatgpt', 'claude' or 'cairn' for an
    // import (source_id: the conversation's id there), 'branch' for "Branch into new chat"
    // (source_id: the session, source_message: the message it was branched at);
    // source_title: that chat's title then; source_at: when. messages.source_id: the
    // message's id in the file it was imported from (an import adds only what is new).
    sql: `
      ALTER TABLE messages ADD COLUMN parent_seq INTEGER;
      ALTER TABLE messages ADD COLUMN source_id TEXT;
      ALTER TABLE sessions ADD COLUMN leaf_seq INTEGER;
      ALTER TABLE sessions ADD COLUMN source TEXT;
      ALTER TABLE sessions ADD COLUMN source_id TEXT;
      ALTER TABLE sessions ADD COLUMN source_message TEXT;
      ALTER TABLE sessions ADD COLUMN source_title TEXT;
      ALTER TABLE sessions ADD COLUMN source_at INTEGER;
      CREATE INDEX messages_children ON messages (session_id, parent_seq);
      CREATE UNIQUE INDEX messages_source ON messages (session_id, source_id)
        WHERE source_id IS NOT NULL;
      CREATE UNIQUE INDEX sessions_source ON sessions (source, source_id)
        WHERE source IN ('chatgpt', 'claude', 'cairn');
    `,
    run: deriveStoredParents,
  },
  {
    version: 11,
    description:
      'what answers cost: cached and reasoning tokens, the price an answer was stored with and its cost; an index for the usage report',
    // `price`: the price in force when the answer was stored (JSON), so that a later price
    // change does not rewrite history; `cost`: its cost in US dollars at that price. The
    // partial index covers every column the usage report reads, so the report walks it alone.
    sql: `
      ALTER TABLE messages ADD COLUMN cached_tokens INTEGER;
      ALTER TABLE messages ADD COLUMN reasoning_tokens INTEGER;
      ALTER TABLE messages ADD COLUMN price TEXT;
      ALTER TABLE messages ADD COLUMN cost REAL;
      ALTER TABLE sessions ADD COLUMN cost REAL;
      CREATE INDEX messages_usage ON messages (created_at, provider, model, session_id,
        input_tokens, output_tokens, cached_tokens, reasoning_tokens, usage_estimated, cost)
        WHERE input_tokens IS NOT NULL;
    `,
  },
  {
    version: 12,
    description: 'attached files: stored by their content, referenced by messages',
    // `id`: the sha256 of the file in <dataDir>/attachments/<id>; `text`: a document's
    // extracted text. `pending_until`: attached but not yet sent (or its chat's first turn
    // failed): kept until then though no message uses it. A file no message uses once that
    // has passed is removed with its row (attachment-rows.ts).
    sql: `
      CREATE TABLE attachments (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        media_type TEXT NOT NULL,
        bytes INTEGER NOT NULL,
        text TEXT,
        created_at INTEGER NOT NULL,
        pending_until INTEGER NOT NULL DEFAULT 0
      ) STRICT;
      CREATE TABLE message_attachments (
        message_pk INTEGER NOT NULL REFERENCES messages (pk) ON DELETE CASCADE,
        attachment_id TEXT NOT NULL,
        PRIMARY KEY (message_pk, attachment_id)
      ) STRICT, WITHOUT ROWID;
      CREATE INDEX message_attachments_by_id ON message_attachments (attachment_id);
    `,
  },
  {
    version: 13,
    description: 'projects: chats grouped with their instructions, assistant, model and folder',
    // A session's project_id names its project; deleting the project moves its chats to
    // "No project" (the foreign key sets it to null). Names are unique without case.
    sql: `
      CREATE TABLE projects (
        pk INTEGER PRIMARY KEY,
        id TEXT NOT NULL UNIQUE,
        name TEXT NOT NULL,
        instructions TEXT NOT NULL DEFAULT '',
        assistant_id TEXT,
        model TEXT,
        workspace TEXT,
        created_at INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX projects_name ON projects (name COLLATE NOCASE);
      ALTER TABLE sessions ADD COLUMN project_id TEXT REFERENCES projects (id) ON DELETE SET NULL;
      CREATE INDEX sessions_project ON sessions (project_id) WHERE project_id IS NOT NULL;
    `,
  },
  {
    version: 14,
    description:
      'the usage report reads running totals by quarter hour and by chat (usage-totals.ts)',
    sql: USAGE_TOTALS_SQL,
  },
]

/**
 * v10: the parents of the messages written before (`deriveParents`: a regenerated, edited
 * or retried message follows what the message it replaced followed), and each session's
 * open branch, the newest path as the window showed it.
 */
function deriveStoredParents(db: Database): void {
  const rows = db.prepare<[string], { seq: number; kind: string; supersedes: number | null }>(
    'SELECT seq, kind, supersedes FROM messages WHERE session_id = ? ORDER BY seq',
  )
  const setParent = db.prepare<[number | null, string, number]>(
    'UPDATE messages SET parent_seq = ? WHERE session_id = ? AND seq = ?',
  )
  const setLeaf = db.prepare<[number | null, string]>(
    'UPDATE sessions SET leaf_seq = ? WHERE id = ?',
  )
  const sessions = db.prepare<[], { id: string }>('SELECT id FROM sessions').all()
  for (const { id } of sessions) {
    const messages = rows.all(id).map((r) => ({ ...r, kind: r.kind as 'message' }))
    const { parents, leaf } = deriveParents(messages)
    for (const [seq, parent] of parents) if (parent !== null) setParent.run(parent, id, seq)
    setLeaf.run(leaf, id)
  }
}

export const SCHEMA_VERSION = MIGRATIONS.reduce((v, m) => Math.max(v, m.version), 0)

export interface MigrationResult {
  from: number
  to: number
  /** the backup written before migrating, or null (fresh database, nothing to do) */
  backup: string | null
}

/** cairn.db was written by a newer Cairn: this one does not open it. */
export class NewerSchemaError extends ExpectedError<'schema_too_new'> {
  constructor(found: number, known: number) {
    super(
      'schema_too_new',
      `The database was written by a newer version of Cairn (schema v${found}; this version knows up to v${known}). Update Cairn to open it.`,
    )
  }
}

export function userVersion(db: Database): number {
  return Number(db.pragma('user_version', { simple: true }))
}

function isEmpty(db: Database): boolean {
  const row = db.prepare('SELECT count(*) AS n FROM sqlite_schema').get() as { n: number }
  return row.n === 0
}

/** `<file>.bak-v<old>-<UTC timestamp>`, never an existing file */
export function backupPath(file: string, version: number, now: number): string {
  const stamp = new Date(now).toISOString().replace(/[-:.]/g, '')
  const base = `${file}.bak-v${version}-${stamp}`
  let path = base
  for (let i = 2; existsSync(path); i++) path = `${base}-${i}`
  return path
}

/**
 * A consistent copy of the whole database, WAL content included, written by SQLite itself
 * (`VACUUM INTO` reads one snapshot through the pager, like the backup API). A plain file
 * copy would miss whatever is still in `-wal`.
 *
 * Why not `db.backup()`: in better-sqlite3 it is asynchronous (it steps the backup on
 * `setImmediate`), and opening the store is synchronous for every host.
 */
export function backupInto(db: Database, path: string): void {
  db.prepare('VACUUM INTO ?').run(path)
}

/**
 * Brings the schema up to date. Safe when several processes open the same file at once:
 * the version is re-read under the write lock (`BEGIN IMMEDIATE`), so only one of them
 * migrates. The backup is taken before that lock (VACUUM cannot run in a transaction);
 * two processes racing may each write one, which is harmless.
 */
export function migrate(
  db: Database,
  file: string,
  opts: { migrations?: readonly Migration[]; now?: () => number } = {},
): MigrationResult {
  const migrations = [...(opts.migrations ?? MIGRATIONS)].sort((a, b) => a.version - b.version)
  const latest = migrations.reduce((v, m) => Math.max(v, m.version), 0)
  const from = userVersion(db)
  if (from > latest) throw new NewerSchemaError(from, latest)
  if (from === latest) return { from, to: from, backup: null }

  let backup: string | null = null
  if (!isEmpty(db) && file !== ':memory:' && file !== '') {
    backup = backupPath(file, from, (opts.now ?? Date.now)())
    backupInto(db, backup)
  }

  const run = db.transaction(() => {
    const current = userVersion(db)
    if (current > latest) throw new NewerSchemaError(current, latest)
    for (const m of migrations) {
      if (m.version <= current) continue
      db.exec(m.sql)
      m.run?.(db)
      db.pragma(`user_version = ${m.version}`)
    }
  })
  run.immediate()
  return { from, to: userVersion(db), backup }
}
