/**
 * Writes one imported conversation (core/import) into the store, in the transaction the
 * store opens for it: a new session marked with where it came from (`source`, `source_id`,
 * `source_at`: the import's date), or the one an earlier import of the same conversation
 * made, to which only the messages it does not hold yet are added (each message keeps its
 * id in the export as `source_id`). Times are the export's; the open branch is the export's.
 */
import type { Database } from 'better-sqlite3'
import type { NewMessage, SessionRecord, StoredMessage } from '../../../src-preload/contract/dto'
import type { NewSession } from '../../core/ports'
import type { ImportedConversation } from '../../core/import/conversation'

/** what the store lends the writer */
export interface ImportHooks {
  db: Database
  now(): number
  createSession(init: NewSession): SessionRecord
  insert(
    sessionId: string,
    message: NewMessage,
    ids: { sourceId: string; createdAt: number },
  ): StoredMessage
}

export interface ImportWrite {
  sessionId: string
  /** a new chat (false: one an earlier import made) */
  created: boolean
  /** messages added (0: it held them all already) */
  added: number
}

function existingSession(h: ImportHooks, c: ImportedConversation): string | null {
  const row = h.db
    .prepare<[string, string], { id: string }>(
      'SELECT id FROM sessions WHERE source = ? AND source_id = ?',
    )
    .get(c.source, c.sourceId)
  return row?.id ?? null
}

function newSession(h: ImportHooks, c: ImportedConversation): string {
  const session = h.createSession({
    title: c.title,
    provider: c.provider ?? null,
    model: c.model,
    systemPrompt: c.systemPrompt ?? null,
  })
  h.db
    .prepare<[string, string, number, number, string]>(
      `UPDATE sessions SET source = ?, source_id = ?, source_at = ?, created_at = ? WHERE id = ?`,
    )
    .run(c.source, c.sourceId, h.now(), c.createdAt ?? c.updatedAt ?? h.now(), session.id)
  return session.id
}

/** the messages a session holds from the export: their id there → their seq here */
function knownMessages(h: ImportHooks, sessionId: string): Map<string, number> {
  const rows = h.db
    .prepare<[string], { source_id: string; seq: number }>(
      'SELECT source_id, seq FROM messages WHERE session_id = ? AND source_id IS NOT NULL',
    )
    .all(sessionId)
  return new Map(rows.map((r) => [r.source_id, r.seq]))
}

export function writeImported(h: ImportHooks, c: ImportedConversation): ImportWrite {
  const found = existingSession(h, c)
  const sessionId = found ?? newSession(h, c)
  const known = knownMessages(h, sessionId)
  const fallbackTime = c.createdAt ?? c.updatedAt ?? h.now()
  let added = 0
  let newest = 0
  for (const m of c.messages) {
    if (known.has(m.sourceId)) continue
    const from = m.covers ? known.get(m.covers.from) : undefined
    const to = m.covers ? known.get(m.covers.to) : undefined
    const createdAt = m.createdAt ?? fallbackTime
    const saved = h.insert(
      sessionId,
      {
        ...m.message,
        parentSeq: m.parentSourceId !== null ? (known.get(m.parentSourceId) ?? null) : null,
        supersedes: null,
        covers: from !== undefined && to !== undefined ? { from, to } : null,
      },
      { sourceId: m.sourceId, createdAt },
    )
    known.set(m.sourceId, saved.seq)
    newest = Math.max(newest, createdAt)
    added++
  }
  if (added > 0 || found === null) {
    const lastKept = c.messages.at(-1)?.sourceId
    const leafId = c.leafSourceId ?? lastKept
    const leaf = leafId !== undefined ? (known.get(leafId) ?? null) : null
    h.db
      .prepare<[number | null, number, string]>(
        'UPDATE sessions SET leaf_seq = coalesce(?, leaf_seq), updated_at = max(?, created_at) WHERE id = ?',
      )
      .run(leaf, Math.max(c.updatedAt ?? 0, newest, c.createdAt ?? 0) || h.now(), sessionId)
  }
  return { sessionId, created: found === null, added }
}
