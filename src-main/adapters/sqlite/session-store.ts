/**
 * `SessionStore` on SQLite (`<dataDir>/cairn.db`). Every public method is one transaction;
 * writers use `BEGIN IMMEDIATE` so that processes sharing the file queue on the busy
 * timeout instead of failing on a lock upgrade.
 */
import { randomUUID } from 'node:crypto'
import { closeSync, mkdirSync, openSync } from 'node:fs'
import { join } from 'node:path'
import type { Database, Statement } from 'better-sqlite3'
import type {
  MessageKind,
  NewMessage,
  SearchHit,
  SessionRecord,
  StoredMessage,
  TodoItem,
} from '../../../src-preload/contract/dto'
import type { NewSession, SessionPatch } from '../../core/ports'
import type {
  ExportAttachments,
  BranchMessages,
  ExportFormat,
  ListSessionsOptions,
  MessagePage,
  SearchOptions,
  SessionRepository,
} from '../../core/service-ports'
import { branchOf, branchPage, leafShowing, type TreeMessage } from '../../core/agent/history-tree'
import { AttachmentRows, type AttachmentFileSet, type AttachmentRecord } from './attachment-rows'
import { DB_FILE_NAME, openDatabase, type OpenDatabaseOptions } from './database'
import { exportSessionAs } from './export'
import { writeImported, type ImportHooks, type ImportWrite } from './session-import'
import type { ImportedConversation } from '../../core/import/conversation'
import { findDanglingToolCalls, interruptedResult } from './repair'
import { readMessages, readSession } from './row-check'
import { toMessage as storedMessage } from './rows'
import { MessageSearch } from './search'
import { SessionLeases, type SessionLeasesOptions } from './session-leases'
import { prepareStatements, type Statements } from './statements'
import { cleanTitle } from './text'
import { insertMessageRow } from './message-insert'
import { SessionNotFoundError } from './session-errors'
import { StoreTransactions } from './store-transactions'

export { SessionNotFoundError }

export interface SessionStoreOptions extends OpenDatabaseOptions {
  /** the clock for `createdAt` / `updatedAt` (ms since the epoch) */
  now?: () => number
  /** for tests: the leases' clock and intervals */
  leases?: SessionLeasesOptions
  /** the attachments' files, removed when no message uses them any more */
  attachmentFiles?: AttachmentFileSet
}

/** how long the files of a chat whose first turn failed stay, for the message to be sent again */
export const DISCARDED_ATTACHMENTS_MS = 60 * 60_000

type SessionColumn =
  | 'title'
  | 'provider'
  | 'model'
  | 'workspace'
  | 'system_prompt'
  | 'todos'
  | 'pinned'
  | 'archived'
  | 'project_id'

/** patch key → column and its SQL value */
function patchColumns(patch: SessionPatch): [SessionColumn, string | number | null][] {
  const cols: [SessionColumn, string | number | null][] = []
  if (patch.title !== undefined) cols.push(['title', cleanTitle(patch.title)])
  if (patch.provider !== undefined) cols.push(['provider', patch.provider])
  if (patch.model !== undefined) cols.push(['model', patch.model])
  if (patch.workspace !== undefined) cols.push(['workspace', patch.workspace])
  if (patch.systemPrompt !== undefined) cols.push(['system_prompt', patch.systemPrompt])
  if (patch.todos !== undefined) cols.push(['todos', JSON.stringify(patch.todos)])
  if (patch.pinned !== undefined) cols.push(['pinned', patch.pinned ? 1 : 0])
  if (patch.archived !== undefined) cols.push(['archived', patch.archived ? 1 : 0])
  if (patch.projectId !== undefined) cols.push(['project_id', patch.projectId])
  return cols
}

export class SqliteSessionStore extends StoreTransactions implements SessionRepository {
  private readonly now: () => number
  private readonly searcher: MessageSearch
  private readonly patchStatements = new Map<string, Statement<unknown[], unknown>>()
  private readonly q: Statements

  /** `db` must come from `openDatabase` (pragmas, schema). The store closes it. */
  /** who runs which session's turn, across processes */
  readonly leases: SessionLeases

  /** the attached files' rows (and their files) */
  private readonly attachments: AttachmentRows

  constructor(
    db: Database,
    opts: {
      now?: () => number
      leases?: SessionLeasesOptions
      attachmentFiles?: AttachmentFileSet
    } = {},
  ) {
    super(db)
    this.now = opts.now ?? Date.now
    this.leases = new SessionLeases(db, opts.leases, (fn) => this.checked(fn))
    this.searcher = new MessageSearch(db)
    this.q = prepareStatements(db)
    this.attachments = new AttachmentRows(db, opts.attachmentFiles ?? null)
  }

  private requireSession(id: string): SessionRecord {
    const row = this.q.session.get(id)
    if (!row) throw new SessionNotFoundError(id)
    return readSession(row)
  }

  createSession(init: NewSession = {}): SessionRecord {
    const id = randomUUID()
    return this.write(() => {
      const now = this.now()
      this.q.insertSession.run(
        id,
        cleanTitle(init.title ?? ''),
        now,
        now,
        init.provider ?? null,
        init.model ?? null,
        init.workspace ?? null,
        init.systemPrompt ?? null,
        init.projectId ?? null,
      )
      return this.requireSession(id)
    })
  }

  getSession(id: string): SessionRecord | null {
    return this.read(() => {
      const row = this.q.session.get(id)
      return row ? readSession(row) : null
    })
  }

  /** Changes metadata. Does not move the session's `updatedAt` (that is conversation activity). */
  updateSession(id: string, patch: SessionPatch): SessionRecord {
    const cols = patchColumns(patch)
    if (cols.length === 0) return this.read(() => this.requireSession(id))
    const key = cols.map(([c]) => c).join(',')
    let stmt = this.patchStatements.get(key)
    if (!stmt) {
      stmt = this.db.prepare(
        `UPDATE sessions SET ${cols.map(([c]) => `${c} = ?`).join(', ')} WHERE id = ?`,
      )
      this.patchStatements.set(key, stmt)
    }
    const update = stmt
    return this.write(() => {
      if (update.run(...cols.map(([, v]) => v), id).changes === 0)
        throw new SessionNotFoundError(id)
      return this.requireSession(id)
    })
  }

  renameSession(id: string, title: string): SessionRecord {
    return this.updateSession(id, { title })
  }

  setPinned(id: string, pinned: boolean): SessionRecord {
    return this.updateSession(id, { pinned })
  }

  setArchived(id: string, archived: boolean): SessionRecord {
    return this.updateSession(id, { archived })
  }

  setTodos(sessionId: string, todos: TodoItem[]): void {
    this.updateSession(sessionId, { todos })
  }

  /**
   * Deletes the session, its messages and their index entries, and the attached files no
   * other chat uses. False when there was none. `keepAttachments`: its files stay a while
   * (`DISCARDED_ATTACHMENTS_MS`) for the message to be sent again (a first turn that failed).
   */
  deleteSession(id: string, opts: { keepAttachments?: boolean } = {}): boolean {
    return this.maybeWrite(
      () => {
        const files = this.attachments.ofSession(id)
        const deleted = this.q.deleteSession.run(id).changes > 0
        const now = this.now()
        if (opts.keepAttachments) this.attachments.lease(files, now + DISCARDED_ATTACHMENTS_MS)
        // removed inside the transaction: another process that attaches the same file waits
        // for it, then writes the file again
        else this.attachments.removeUnused(files, now)
        return deleted
      },
      (deleted) => deleted,
    )
  }

  /**
   * A file attached to a message not yet sent: its row (with a document's text), kept until
   * `pendingMs` from now though no message uses it. Write the file after this returns.
   */
  recordAttachment(record: AttachmentRecord, pendingMs: number): void {
    const now = this.now()
    this.write(() => this.attachments.record(record, now, now + pendingMs))
  }

  /** an attached file's row (a document's text included), or null */
  attachment(id: string): AttachmentRecord | null {
    return this.read(() => this.attachments.get(id))
  }

  /** Removes the attached files nothing uses or waits for (at start). Returns their ids. */
  sweepAttachments(): string[] {
    return this.maybeWrite(
      () => this.attachments.sweep(this.now()),
      (removed) => removed.length > 0,
    )
  }

  /** pinned first, then the most recently active */
  listSessions(opts: ListSessionsOptions): { sessions: SessionRecord[]; total: number } {
    const list = opts.includeArchived ? this.q.listAllSessions : this.q.listSessions
    return this.read(() => ({
      sessions: list.page
        .all(Math.max(0, opts.limit), Math.max(0, opts.offset ?? 0))
        .map(readSession),
      total: list.total.get()?.n ?? 0,
    }))
  }

  listMessages(sessionId: string): StoredMessage[] {
    return this.read(() => readMessages(this.q.messages.all(sessionId)))
  }

  /**
   * One page of a session, always in ascending seq. With `afterSeq`: the first `limit`
   * messages after it (and before `beforeSeq` if given). Without: the last `limit` messages
   * before `beforeSeq` (or the end): open a session at its end, scroll up with `beforeSeq`.
   */
  getMessages(sessionId: string, page: MessagePage): StoredMessage[] {
    const limit = Math.max(0, page.limit)
    const before = page.beforeSeq ?? Number.MAX_SAFE_INTEGER
    return this.read(() => {
      const rows =
        page.afterSeq !== undefined
          ? this.q.messagesAfter.all(sessionId, page.afterSeq, before, limit)
          : this.q.messagesBefore.all(sessionId, before, limit)
      // results at the top of a page are read with the call they answer, on an earlier page
      const first = rows[0]
      const leadIn =
        first?.role === 'tool' ? this.q.leadIn.all({ session: sessionId, seq: first.seq }) : []
      return readMessages(rows, leadIn)
    })
  }

  appendMessage(sessionId: string, message: NewMessage): StoredMessage {
    return this.write(() => this.insertMessage(sessionId, message))
  }

  /** `insertMessageRow` in this store's transaction (the caller opened it) */
  private insertMessage(
    sessionId: string,
    message: NewMessage,
    ids: { id?: string; sourceId?: string; createdAt?: number } = {},
  ): StoredMessage {
    const ctx = { q: this.q, attachments: this.attachments, now: this.now }
    return insertMessageRow(ctx, sessionId, message, ids)
  }

  /**
   * "Keep in context": a pinned message is never summarized or left out of the request.
   * Only conversation messages can be pinned. Null when the session has no such message.
   */
  setMessagePinned(sessionId: string, messageId: string, pinned: boolean): StoredMessage | null {
    return this.maybeWrite(
      () => {
        if (this.q.setMessagePinned.run(pinned ? 1 : 0, sessionId, messageId).changes === 0)
          return null
        const row = this.q.messageById.get(sessionId, messageId)
        return row ? storedMessage(row) : null
      },
      (m) => m !== null,
    )
  }

  /**
   * Undoes a compaction: removes the summary, so the next request sends the messages it
   * stood in for again (they were never changed). False when it is not one of the
   * session's summaries.
   */
  removeSummary(sessionId: string, messageId: string): boolean {
    return this.maybeWrite(
      () => this.q.deleteSummary.run(sessionId, messageId).changes > 0,
      (removed) => removed,
    )
  }

  /**
   * Answers every dangling tool call with a synthetic `interrupted` result, appended at the
   * end of the session in one transaction (nothing is counted when nothing was dangling).
   *
   * The history is never rewritten. In a history the loop wrote, only the last assistant
   * message can have dangling calls, and then its results directly follow it as strict
   * providers require. Calls dangling earlier (a corrupt or imported history) are answered
   * too, also at the end; putting those results next to their calls is for the
   * request-time view.
   */
  repairDanglingToolCalls(sessionId: string): StoredMessage[] {
    const scan = (): StoredMessage[] => {
      if (!this.q.sessionHead.get(sessionId)) throw new SessionNotFoundError(sessionId)
      const dangling = findDanglingToolCalls(this.q.callScan.all(sessionId))
      // each message's synthetic results follow one another after its last real one
      const tips = new Map<number, number>()
      return dangling.map((d) => {
        const saved = this.insertMessage(
          sessionId,
          interruptedResult(d, tips.get(d.assistantSeq) ?? d.after),
        )
        tips.set(d.assistantSeq, saved.seq)
        return saved
      })
    }
    return this.maybeWrite(scan, (appended) => appended.length > 0)
  }

  /**
   * Opens the branch that ends at `seq` (a message of the chain): the window shows it, and
   * the next message follows it. Changes no message, nor the session's activity time.
   */
  setLeaf(sessionId: string, seq: number): SessionRecord {
    return this.write(() => {
      const head = this.q.sessionHead.get(sessionId)
      if (!head) throw new SessionNotFoundError(sessionId)
      if (!this.q.linkExists.get(sessionId, seq)) {
        throw new Error(`session ${sessionId} has no message ${seq} to open a branch at`)
      }
      this.q.setLeaf.run(seq, head.pk)
      return this.requireSession(sessionId)
    })
  }

  /**
   * "Branch into new chat": a new session holding the branch up to the message `seq` (and
   * the summaries that apply to it), numbered from 1, with the source session's settings
   * and assistant; its title says where it came from and its origin links back. The source
   * is not changed. All in one transaction.
   */
  forkSession(sessionId: string, seq: number): SessionRecord {
    return this.write(() => {
      const source = this.requireSession(sessionId)
      const all = readMessages(this.q.messages.all(sessionId))
      const at = all.find((m) => m.seq === seq)
      if (!at || at.kind === 'summary') {
        throw new Error(`session ${sessionId} has no message ${seq} to branch at`)
      }
      const fork = this.createSession({
        title: `${source.title || 'Untitled'} · branch at ${seq}`,
        provider: source.provider,
        model: source.model,
        workspace: source.workspace,
        systemPrompt: source.systemPrompt,
        projectId: source.projectId ?? null,
      })
      this.q.markBranch.run(
        sessionId,
        at.id,
        source.title,
        this.now(),
        sessionId,
        sessionId,
        fork.id,
      )
      const renumbered = new Map<number, number>()
      for (const m of branchOf(all, seq)) {
        const { id: _id, sessionId: _s, seq: old, createdAt: _c, ...rest } = m
        const covers = m.covers
          ? { from: renumbered.get(m.covers.from)!, to: renumbered.get(m.covers.to)! }
          : null
        const saved = this.insertMessage(fork.id, {
          ...rest,
          parentSeq: m.parentSeq === null ? null : (renumbered.get(m.parentSeq) ?? null),
          supersedes: null,
          covers,
        })
        renumbered.set(old, saved.seq)
      }
      return this.requireSession(fork.id)
    })
  }

  /**
   * One conversation read from an export, in one transaction: a new chat marked as
   * imported, or only what an earlier import of it did not bring (session-import.ts).
   */
  importConversation(conversation: ImportedConversation): ImportWrite {
    const hooks: ImportHooks = {
      db: this.db,
      now: this.now,
      createSession: (init) => this.createSession(init),
      insert: (sessionId, message, ids) => this.insertMessage(sessionId, message, ids),
    }
    return this.maybeWrite(
      () => writeImported(hooks, conversation),
      (r) => r.added > 0 || r.created,
    )
  }

  /** the tree's shape: every message's seq, parent, kind and what a summary covers */
  private shape(sessionId: string): TreeMessage[] {
    return this.q.shape.all(sessionId).map((m) => ({
      seq: m.seq,
      parentSeq: m.parent_seq,
      kind: m.kind as MessageKind,
      ...(m.covers_from !== null && m.covers_to !== null
        ? { covers: { from: m.covers_from, to: m.covers_to } }
        : {}),
    }))
  }

  /**
   * Opens the branch that shows the message `seq` (switching versions, a search hit on
   * another branch): unchanged when it is on the open branch, else at the newest message
   * that followed it. Null when the session has no such message, or it is a summary.
   */
  openBranchAt(sessionId: string, seq: number): SessionRecord | null {
    const { shape, leaf } = this.read(() => ({
      shape: this.shape(sessionId),
      leaf: this.q.sessionHead.get(sessionId)?.leaf_seq,
    }))
    const target = leafShowing(shape, leaf, seq)
    if (target === null) return null
    return target === leaf ? this.requireSession(sessionId) : this.setLeaf(sessionId, target)
  }

  /** one page of the open branch, from its end backwards (`branchPage` in history-tree.ts) */
  getBranchPage(sessionId: string, page: { limit: number; beforeSeq?: number }): BranchMessages {
    return this.read(() => {
      const head = this.q.sessionHead.get(sessionId)
      if (!head) throw new SessionNotFoundError(sessionId)
      const { seqs, hasMore, versions } = branchPage(this.shape(sessionId), head.leaf_seq, page)
      const messages = readMessages(this.q.messagesAt.all(sessionId, JSON.stringify(seqs)))
      return { messages, hasMore, versions }
    })
  }

  /**
   * Messages (text, tool arguments, tool results, notices) and session titles. Blank or
   * punctuation-only queries give `[]`. See `search.ts` for the rules.
   */
  search(query: string, opts: SearchOptions): SearchHit[] {
    return this.read(() => this.searcher.search(query, opts))
  }

  exportSession(id: string, format: ExportFormat, attachments: ExportAttachments = {}): string {
    const { session, messages } = this.read(() => ({
      session: this.requireSession(id),
      messages: this.listMessages(id),
    }))
    return exportSessionAs(format, session, messages, attachments)
  }

  close(): void {
    if (!this.db.open) return
    try {
      // refreshes planner statistics when useful; never worth a long wait at shutdown
      this.db.pragma('busy_timeout = 100')
      this.db.pragma('optimize')
    } catch {
      // best effort: another process may hold the lock
    }
    this.db.close()
  }
}

/** Opens (creating the directory and the file if needed) `<dataDir>/cairn.db`. */
export function createSessionStore(
  dataDir: string,
  opts: SessionStoreOptions = {},
): SqliteSessionStore {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })
  const { now, leases, attachmentFiles, ...open } = opts
  const file = join(dataDir, DB_FILE_NAME)
  // made private before SQLite opens it: SQLite gives the WAL and SHM files the same mode
  try {
    closeSync(openSync(file, 'wx', 0o600))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
  }
  const db = openDatabase(file, open)
  return new SqliteSessionStore(db, {
    ...(now ? { now } : {}),
    ...(leases ? { leases } : {}),
    ...(attachmentFiles ? { attachmentFiles } : {}),
  })
}
