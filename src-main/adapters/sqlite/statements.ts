/**
 * The store's prepared statements, prepared once per connection.
 */
import type { Database } from 'better-sqlite3'
import type { CallScanRow } from './repair'
import { MESSAGE_COLUMNS, SESSION_COLUMNS, type MessageRow, type SessionRow } from './rows'

export type Statements = ReturnType<typeof prepareStatements>

type Nullable = string | null

/** pinned first, then the most recently active; and the total */
function listSessions(db: Database, where: string) {
  return {
    page: db.prepare<[number, number], SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM sessions s WHERE ${where}
       ORDER BY s.pinned DESC, s.updated_at DESC, s.pk DESC LIMIT ? OFFSET ?`,
    ),
    total: db.prepare<[], { n: number }>(`SELECT count(*) AS n FROM sessions s WHERE ${where}`),
  }
}

export function prepareStatements(db: Database) {
  return { ...sessionStatements(db), ...messageStatements(db) }
}

/** the sessions table: one session, its head, a page of the list, new, touched, deleted */
function sessionStatements(db: Database) {
  return {
    session: db.prepare<[string], SessionRow>(
      `SELECT ${SESSION_COLUMNS} FROM sessions s WHERE s.id = ?`,
    ),
    sessionHead: db.prepare<[string], { pk: number; title: string; leaf_seq: number | null }>(
      'SELECT pk, title, leaf_seq FROM sessions WHERE id = ?',
    ),
    /** where the session's open branch ends */
    setLeaf: db.prepare<[number | null, number]>('UPDATE sessions SET leaf_seq = ? WHERE pk = ?'),
    insertSession: db.prepare<
      [string, string, number, number, Nullable, Nullable, Nullable, Nullable, Nullable]
    >(
      `INSERT INTO sessions (id, title, created_at, updated_at, provider, model, workspace, system_prompt,
         project_id)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
    deleteSession: db.prepare<[string]>('DELETE FROM sessions WHERE id = ?'),
    /** "Branch into new chat": where the new session came from, and its assistant */
    markBranch: db.prepare<[string, string, string, number, string, string, string]>(
      `UPDATE sessions SET source = 'branch', source_id = ?, source_message = ?,
         source_title = ?, source_at = ?,
         assistant_id = (SELECT assistant_id FROM sessions WHERE id = ?),
         assistant_snapshot = (SELECT assistant_snapshot FROM sessions WHERE id = ?)
       WHERE id = ?`,
    ),
    listSessions: listSessions(db, 's.archived = 0'),
    listAllSessions: listSessions(db, '1'),
    /** activity, usage totals, and the title when the session has none yet */
    touchSession: db.prepare<
      [
        {
          now: number
          input: number
          output: number
          cost: number | null
          title: string
          pk: number
        },
      ]
    >(
      `UPDATE sessions SET updated_at = @now, input_tokens = input_tokens + @input,
         output_tokens = output_tokens + @output,
         cost = CASE WHEN @cost IS NULL THEN cost ELSE coalesce(cost, 0) + @cost END,
         title = CASE WHEN title = '' THEN @title ELSE title END
       WHERE pk = @pk`,
    ),
  }
}

/** the messages table and its search indexes */
/** a message's place in the tree */
export interface ShapeRow {
  seq: number
  parent_seq: number | null
  kind: string
  covers_from: number | null
  covers_to: number | null
}

function messageStatements(db: Database) {
  return {
    nextSeq: db.prepare<[string], { seq: number }>(
      'SELECT coalesce(max(seq), 0) + 1 AS seq FROM messages WHERE session_id = ?',
    ),
    insertMessage: db.prepare<Record<string, string | number | null>>(
      `INSERT INTO messages (id, session_id, seq, parent_seq, source_id, turn_id, kind, role, content, parts, reasoning,
         provider_extras, tool_calls, tool_call_id, tool_name, provider, model, status,
         failure_kind, is_error, input_tokens, output_tokens, usage_estimated, supersedes,
         duration_ms, reasoning_ms, decided_by, served_model, pinned, covers_from, covers_to,
         created_at, cached_tokens, reasoning_tokens, price, cost)
       VALUES (@id, @session_id, @seq, @parent_seq, @source_id, @turn_id, @kind, @role, @content, @parts, @reasoning,
         @provider_extras, @tool_calls, @tool_call_id, @tool_name, @provider, @model, @status,
         @failure_kind, @is_error, @input_tokens, @output_tokens, @usage_estimated, @supersedes,
         @duration_ms, @reasoning_ms, @decided_by, @served_model, @pinned, @covers_from,
         @covers_to, @created_at, @cached_tokens, @reasoning_tokens, @price, @cost)`,
    ),
    insertFts: db.prepare<[number, string, string]>(
      'INSERT INTO messages_fts (rowid, text, tool_args) VALUES (?, ?, ?)',
    ),
    /** messages in scripts written without spaces are also in the trigram index */
    insertCjk: db.prepare<[number, string, string]>(
      'INSERT INTO messages_cjk (rowid, text, tool_args) VALUES (?, ?, ?)',
    ),
    /** "keep in context" on one message of a session */
    setMessagePinned: db.prepare<[number, string, string]>(
      `UPDATE messages SET pinned = ? WHERE session_id = ? AND id = ? AND kind = 'message'`,
    ),
    messageById: db.prepare<[string, string], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND id = ?`,
    ),
    /** undoing a compaction: only a summary can be removed */
    deleteSummary: db.prepare<[string, string]>(
      `DELETE FROM messages WHERE session_id = ? AND id = ? AND kind = 'summary'`,
    ),
    messageByPk: db.prepare<[number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE pk = ?`,
    ),
    messages: db.prepare<[string], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? ORDER BY seq`,
    ),
    messagesAfter: db.prepare<[string, number, number, number], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND seq > ? AND seq < ?
       ORDER BY seq LIMIT ?`,
    ),
    messagesBefore: db.prepare<[string, number, number], MessageRow>(
      `SELECT * FROM (SELECT ${MESSAGE_COLUMNS} FROM messages WHERE session_id = ? AND seq < ?
         ORDER BY seq DESC LIMIT ?) ORDER BY seq`,
    ),
    /** the rows before `seq` back to the last one that is not a tool result (a page's lead-in) */
    leadIn: db.prepare<[{ session: string; seq: number }], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages m WHERE m.session_id = @session AND m.seq < @seq
         AND m.seq >= coalesce((SELECT max(seq) FROM messages
           WHERE session_id = @session AND seq < @seq AND role <> 'tool'), 0)
       ORDER BY m.seq`,
    ),
    callScan: db.prepare<[string], CallScanRow>(
      `SELECT seq, parent_seq, role, turn_id, tool_calls, tool_call_id FROM messages
       WHERE session_id = ? AND kind <> 'summary' ORDER BY seq`,
    ),
    /** whether the session has a message of the chain with this seq */
    linkExists: db.prepare<[string, number], { n: number }>(
      `SELECT 1 AS n FROM messages WHERE session_id = ? AND seq = ? AND kind <> 'summary'`,
    ),
    /** the tree's shape: every message's seq, parent and kind */
    shape: db.prepare<[string], ShapeRow>(
      `SELECT seq, parent_seq, kind, covers_from, covers_to FROM messages
       WHERE session_id = ? ORDER BY seq`,
    ),
    /** the messages with these seqs (a JSON array), in seq order */
    messagesAt: db.prepare<[string, string], MessageRow>(
      `SELECT ${MESSAGE_COLUMNS} FROM messages
       WHERE session_id = ? AND seq IN (SELECT value FROM json_each(?)) ORDER BY seq`,
    ),
  }
}
