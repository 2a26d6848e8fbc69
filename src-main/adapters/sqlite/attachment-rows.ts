/**
 * The attachments' rows: one per stored file (its sha256, media type, size, a document's
 * extracted text), and which messages use it. A file is removed, with its row, when no
 * message uses it any more and it is not waiting to be sent (`pending_until`): when the
 * last chat that used it is deleted, or by the sweep at start.
 */
import type { Database } from 'better-sqlite3'
import type { NewMessage } from '../../../src-preload/contract/dto'

export interface AttachmentRecord {
  id: string
  mediaType: string
  bytes: number
  /** a document's extracted text */
  text: string | null
}

/** The stored files, as the store removes them. */
export interface AttachmentFileSet {
  remove(id: string): void
}

/** the ids of the files a message's parts use */
export function attachmentIds(message: Pick<NewMessage, 'parts'>): string[] {
  const ids = new Set<string>()
  for (const p of message.parts ?? []) if (p.type === 'attachment') ids.add(p.id)
  return [...ids]
}

export class AttachmentRows {
  private readonly q

  constructor(
    db: Database,
    private readonly files: AttachmentFileSet | null,
  ) {
    this.q = {
      upsert: db.prepare<[string, string, number, string | null, number, number]>(
        `INSERT INTO attachments (id, media_type, bytes, text, created_at, pending_until)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET
           pending_until = max(pending_until, excluded.pending_until),
           text = coalesce(text, excluded.text)`,
      ),
      text: db.prepare<[string], { text: string | null }>(
        'SELECT text FROM attachments WHERE id = ?',
      ),
      record: db.prepare<
        [string],
        { id: string; media_type: string; bytes: number; text: string | null }
      >('SELECT id, media_type, bytes, text FROM attachments WHERE id = ?'),
      link: db.prepare<[number, string]>(
        'INSERT OR IGNORE INTO message_attachments (message_pk, attachment_id) VALUES (?, ?)',
      ),
      sent: db.prepare<[string]>('UPDATE attachments SET pending_until = 0 WHERE id = ?'),
      ofSession: db.prepare<[string], { id: string }>(
        `SELECT DISTINCT ma.attachment_id AS id FROM message_attachments ma
         JOIN messages m ON m.pk = ma.message_pk WHERE m.session_id = ?`,
      ),
      lease: db.prepare<[number, string]>(
        'UPDATE attachments SET pending_until = max(pending_until, ?) WHERE id = ?',
      ),
      removeIfUnused: db.prepare<[string, number]>(
        `DELETE FROM attachments WHERE id = ? AND pending_until <= ?
           AND NOT EXISTS (SELECT 1 FROM message_attachments WHERE attachment_id = attachments.id)`,
      ),
      unused: db.prepare<[number], { id: string }>(
        `SELECT id FROM attachments WHERE pending_until <= ?
           AND NOT EXISTS (SELECT 1 FROM message_attachments WHERE attachment_id = attachments.id)`,
      ),
    }
  }

  /** a file attached (not yet sent: kept until `pendingUntil` though no message uses it) */
  record(r: AttachmentRecord, now: number, pendingUntil: number): void {
    this.q.upsert.run(r.id, r.mediaType, r.bytes, r.text, now, pendingUntil)
  }

  get(id: string): AttachmentRecord | null {
    const row = this.q.record.get(id)
    return row ? { id: row.id, mediaType: row.media_type, bytes: row.bytes, text: row.text } : null
  }

  text(id: string): string | null {
    return this.q.text.get(id)?.text ?? null
  }

  /** the texts of a message's documents, for the search index */
  texts(ids: readonly string[]): string[] {
    return ids.flatMap((id) => {
      const t = this.text(id)
      return t ? [t] : []
    })
  }

  /** a message that uses these files was saved: they are used, no longer waiting */
  link(messagePk: number, ids: readonly string[]): void {
    for (const id of ids) {
      this.q.link.run(messagePk, id)
      this.q.sent.run(id)
    }
  }

  /** the files a session's messages use (read before it is deleted) */
  ofSession(sessionId: string): string[] {
    return this.q.ofSession.all(sessionId).map((r) => r.id)
  }

  /** keeps these files until `until` though no message uses them (a resend may follow) */
  lease(ids: readonly string[], until: number): void {
    for (const id of ids) this.q.lease.run(until, id)
  }

  /** Removes each of `ids` that nothing uses or waits for, row and file. Returns those removed. */
  removeUnused(ids: readonly string[], now: number): string[] {
    const removed: string[] = []
    for (const id of ids) {
      if (this.q.removeIfUnused.run(id, now).changes === 0) continue
      this.files?.remove(id)
      removed.push(id)
    }
    return removed
  }

  /**
   * The sweep: every row nothing uses or waits for, with its file. A file without a row is
   * kept: after a damaged database was set aside (or a backup is restored) the rows that
   * name it may come back.
   */
  sweep(now: number): string[] {
    return this.removeUnused(
      this.q.unused.all(now).map((r) => r.id),
      now,
    )
  }
}
