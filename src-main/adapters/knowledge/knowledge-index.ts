/**
 * The knowledge base on the main thread (`KnowledgeBase`): it reads `knowledge.db` (sources,
 * statuses, chunks, search) through a connection of its own, and hands every write of the
 * index to the worker thread (`worker.ts`), so indexing never holds up a turn. Adding a
 * source writes its row here (one statement) and queues its indexing.
 */
import { randomUUID } from 'node:crypto'
import { stat } from 'node:fs/promises'
import { isAbsolute, resolve } from 'node:path'
import { Worker } from 'node:worker_threads'
import type { Database, Statement } from 'better-sqlite3'
import type {
  KnowledgeFile,
  KnowledgeFileState,
  KnowledgeHit,
  KnowledgeOwner,
  KnowledgeProgress,
  KnowledgeSearchResult,
  KnowledgeSource,
} from '../../../src-preload/contract/knowledge'
import { ExpectedError } from '../../core/errors'
import type { KnowledgeBase } from '../../core/service-ports'
import { workerEntry } from '../worker-entry'
import { openKnowledgeDb } from './knowledge-db'
import { KnowledgeSearch } from './search'
import { SourceWatcher } from './source-watcher'
import type { FromWorker, Job, ToWorker, WorkerSetup } from './worker-protocol'

export interface KnowledgeIndexOptions {
  dataDir: string
  nativeBinding?: string
  /** files larger than this many bytes are skipped (settings: knowledge.maxFileBytes) */
  sizeLimit: () => number
  /** told what the worker could not do on its own (a folder it cannot watch) */
  onWarning?: (message: string) => void
  /** for tests: caps the index's pages, as a full disk would */
  maxPageCount?: number
}

interface SourceRow {
  pk: number
  id: string
  owner_kind: string
  owner_id: string
  path: string
  kind: string
  added_at: number
  problem: string | null
}

interface FileRow {
  path: string
  state: KnowledgeFileState
  size: number
  chunks: number
  reason: string | null
  indexed_at: number | null
}

const DEFAULT_LIMIT = 8
const MAX_LIMIT = 50

export class KnowledgeIndex implements KnowledgeBase {
  private readonly db: Database
  private readonly searcher: KnowledgeSearch
  private readonly q: ReturnType<typeof statements>
  private worker: Worker | null = null
  private nextJob = 1
  private readonly pending = new Map<number, { resolve: () => void; reject: (e: Error) => void }>()
  private readonly listeners = new Set<() => void>()
  private current: KnowledgeProgress = { running: false, done: 0, total: 0, current: null }
  private lastError: string | null = null
  private watcher: SourceWatcher | null = null

  constructor(private readonly o: KnowledgeIndexOptions) {
    this.db = openKnowledgeDb(o.dataDir, o.nativeBinding ? { nativeBinding: o.nativeBinding } : {})
    this.searcher = new KnowledgeSearch(this.db)
    this.q = statements(this.db)
  }

  start(): void {
    void this.post({ type: 'sync', id: 0 }).catch(() => {})
    this.watcher ??= new SourceWatcher(
      (sourcePk, paths) =>
        void this.post({ type: 'paths', id: 0, sourcePk, paths }).catch((e: Error) =>
          this.o.onWarning?.(`Changes could not be indexed: ${e.message}`),
        ),
      (m) => this.o.onWarning?.(m),
    )
    this.rewatch()
  }

  /** the watcher follows the sources as they are now */
  private rewatch(): void {
    if (!this.watcher) return
    const sources = this.q.all.all().map((r) => ({
      pk: r.pk,
      path: r.path,
      kind: r.kind === 'folder' ? ('folder' as const) : ('file' as const),
    }))
    void this.watcher.watch(sources)
  }

  async addSource(owner: KnowledgeOwner, path: string): Promise<KnowledgeSource> {
    const full = isAbsolute(path) ? path : resolve(path)
    const st = await stat(full).catch(() => null)
    if (!st)
      throw new ExpectedError(
        'not_found',
        `${full} does not exist: add a file or folder that does.`,
      )
    if (!st.isFile() && !st.isDirectory())
      throw new ExpectedError('bad_request', `${full} is neither a file nor a folder.`)
    this.q.insert.run(
      randomUUID(),
      owner.kind,
      owner.id,
      full,
      st.isDirectory() ? 'folder' : 'file',
      Date.now(),
    )
    const row = this.q.byOwnerPath.get(owner.kind, owner.id, full) as SourceRow
    void this.post({ type: 'sync', id: 0, sourcePk: row.pk }).catch(() => {})
    this.rewatch()
    return this.sourceOf(row)
  }

  async removeSource(idOrPath: string, owner?: KnowledgeOwner): Promise<void> {
    const rows = this.matching(idOrPath, owner)
    if (rows.length === 0)
      throw new ExpectedError(
        'not_found',
        `No knowledge source is ${idOrPath}: see the sources with knowledge status.`,
      )
    for (const r of rows) await this.post({ type: 'remove', id: 0, sourcePk: r.pk })
    this.rewatch()
  }

  async reindex(sourceId?: string): Promise<void> {
    if (sourceId === undefined) return this.post({ type: 'sync', id: 0, force: true })
    const row = this.sourceRow(sourceId)
    return this.post({ type: 'sync', id: 0, sourcePk: row.pk, force: true })
  }

  async retryFile(sourceId: string, path: string): Promise<void> {
    const row = this.sourceRow(sourceId)
    return this.post({ type: 'file', id: 0, sourcePk: row.pk, path })
  }

  sources(owner?: KnowledgeOwner): KnowledgeSource[] {
    const rows = owner ? this.q.ofOwner.all(owner.kind, owner.id) : this.q.all.all()
    return rows.map((r) => this.sourceOf(r))
  }

  files(sourceId: string): KnowledgeFile[] {
    return this.q.files.all(this.sourceRow(sourceId).pk).map((r) => ({
      path: r.path,
      state: r.state,
      size: r.size,
      chunks: r.chunks,
      reason: r.reason,
      indexedAt: r.indexed_at,
    }))
  }

  chunks(sourceId: string, path: string): KnowledgeHit[] {
    const pks = this.q.chunkPks.all(this.sourceRow(sourceId).pk, path)
    return this.searcher.hits(pks.map((r) => ({ pk: r.pk, score: 0 })))
  }

  search(
    owner: KnowledgeOwner,
    query: string,
    limit = DEFAULT_LIMIT,
  ): Promise<KnowledgeSearchResult> {
    const n = Math.max(1, Math.min(MAX_LIMIT, Math.floor(limit)))
    const hits = this.searcher.hits(this.searcher.bm25(owner, query, n))
    return Promise.resolve({ hits, mode: 'bm25', fallback: null })
  }

  progress(): KnowledgeProgress {
    return { ...this.current }
  }

  /** what the last failed job said (a full disk), until a job succeeds */
  problem(): string | null {
    return this.lastError
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener)
    return () => this.listeners.delete(listener)
  }

  /** waits for every job so far; throws what the last one that failed said */
  async whenIdle(): Promise<void> {
    const waiting = [...this.waiters.values()]
    if (waiting.length === 0) return
    const results = await Promise.allSettled(waiting)
    const failed = results.find((r) => r.status === 'rejected')
    if (failed) throw (failed as PromiseRejectedResult).reason
  }

  async close(): Promise<void> {
    await this.watcher?.close()
    this.watcher = null
    const worker = this.worker
    this.worker = null
    if (worker) {
      const exited = new Promise<void>((r) => worker.once('exit', () => r()))
      worker.postMessage({ type: 'stop' } satisfies ToWorker)
      const timer = setTimeout(() => void worker.terminate(), 2_000)
      await exited
      clearTimeout(timer)
    }
    for (const p of this.pending.values()) p.reject(new Error('the knowledge index was closed'))
    this.pending.clear()
    this.db.close()
  }

  // ── the worker ───────────────────────────────────────────────────────────────────────

  private readonly waiters = new Map<number, Promise<void>>()

  private post(job: Job): Promise<void> {
    const id = this.nextJob++
    const done = new Promise<void>((resolve, reject) => this.pending.set(id, { resolve, reject }))
    done.catch(() => {})
    this.waiters.set(id, done)
    this.send({ type: 'settings', sizeLimit: this.o.sizeLimit() })
    this.send({ ...job, id })
    this.current = { ...this.current, running: true }
    return done
  }

  private send(m: ToWorker): void {
    this.ensureWorker().postMessage(m)
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker
    const entry = workerEntry(import.meta.url, 'knowledge-worker', './worker.ts')
    const setup: WorkerSetup = {
      dataDir: this.o.dataDir,
      sizeLimit: this.o.sizeLimit(),
      ...(this.o.nativeBinding ? { nativeBinding: this.o.nativeBinding } : {}),
      ...(this.o.maxPageCount !== undefined ? { maxPageCount: this.o.maxPageCount } : {}),
    }
    const worker = new Worker(entry.code, { eval: entry.eval, workerData: setup })
    worker.on('message', (m: FromWorker) => this.heard(m))
    worker.on('error', (e) => this.failAll(`The knowledge index's worker failed: ${e.message}`))
    worker.on('exit', () => {
      if (this.worker === worker) this.worker = null
      this.failAll('The knowledge index stopped before it was done.')
    })
    this.worker = worker
    return worker
  }

  private heard(m: FromWorker): void {
    switch (m.type) {
      case 'progress':
        this.current = { running: true, done: m.done, total: m.total, current: m.current }
        break
      case 'done': {
        const p = this.pending.get(m.id)
        this.pending.delete(m.id)
        this.waiters.delete(m.id)
        if (m.error) {
          this.lastError = m.error.message
          p?.reject(new ExpectedError('storage', m.error.message))
        } else {
          this.lastError = null
          p?.resolve()
        }
        if (this.pending.size === 0)
          this.current = { running: false, done: 0, total: 0, current: null }
        break
      }
      case 'changed':
        this.searcher.invalidate()
        break
      case 'warning':
        this.o.onWarning?.(m.message)
        break
    }
    for (const l of this.listeners) l()
  }

  private failAll(message: string): void {
    if (this.pending.size > 0) this.lastError = message
    for (const p of this.pending.values()) p.reject(new ExpectedError('unavailable', message))
    this.pending.clear()
    this.waiters.clear()
    this.current = { running: false, done: 0, total: 0, current: null }
  }

  // ── rows ─────────────────────────────────────────────────────────────────────────────

  private matching(idOrPath: string, owner?: KnowledgeOwner): SourceRow[] {
    const full = isAbsolute(idOrPath) ? idOrPath : resolve(idOrPath)
    return this.q.all
      .all()
      .filter((r) => r.id === idOrPath || r.path === full)
      .filter((r) => !owner || (r.owner_kind === owner.kind && r.owner_id === owner.id))
  }

  private sourceRow(id: string): SourceRow {
    const row = this.q.byId.get(id)
    if (!row) throw new ExpectedError('not_found', `No knowledge source has the id ${id}.`)
    return row
  }

  private sourceOf(r: SourceRow): KnowledgeSource {
    const counts: Record<KnowledgeFileState, number> = {
      pending: 0,
      indexed: 0,
      skipped: 0,
      failed: 0,
    }
    let chunks = 0
    for (const c of this.q.counts.all(r.pk)) {
      counts[c.state] = c.n
      chunks += c.chunks
    }
    return {
      id: r.id,
      owner: { kind: r.owner_kind as KnowledgeOwner['kind'], id: r.owner_id },
      path: r.path,
      kind: r.kind === 'folder' ? 'folder' : 'file',
      addedAt: r.added_at,
      problem: r.problem,
      counts,
      chunks,
    }
  }
}

function statements(db: Database): {
  insert: Statement<[string, string, string, string, string, number]>
  byOwnerPath: Statement<[string, string, string], SourceRow>
  byId: Statement<[string], SourceRow>
  all: Statement<[], SourceRow>
  ofOwner: Statement<[string, string], SourceRow>
  counts: Statement<[number], { state: KnowledgeFileState; n: number; chunks: number }>
  files: Statement<[number], FileRow>
  chunkPks: Statement<[number, string], { pk: number }>
} {
  const cols = 'pk, id, owner_kind, owner_id, path, kind, added_at, problem'
  return {
    insert: db.prepare(
      `INSERT INTO sources (id, owner_kind, owner_id, path, kind, added_at) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (owner_kind, owner_id, path) DO NOTHING`,
    ),
    byOwnerPath: db.prepare(
      `SELECT ${cols} FROM sources WHERE owner_kind = ? AND owner_id = ? AND path = ?`,
    ),
    byId: db.prepare(`SELECT ${cols} FROM sources WHERE id = ?`),
    all: db.prepare(`SELECT ${cols} FROM sources ORDER BY added_at, pk`),
    ofOwner: db.prepare(
      `SELECT ${cols} FROM sources WHERE owner_kind = ? AND owner_id = ? ORDER BY added_at, pk`,
    ),
    counts: db.prepare(
      'SELECT state, count(*) AS n, sum(chunks) AS chunks FROM files WHERE source_pk = ? GROUP BY state',
    ),
    files: db.prepare(
      'SELECT path, state, size, chunks, reason, indexed_at FROM files WHERE source_pk = ? ORDER BY path',
    ),
    chunkPks: db.prepare(
      'SELECT c.pk FROM chunks c JOIN files f ON f.pk = c.file_pk WHERE f.source_pk = ? AND f.path = ? ORDER BY c.seq',
    ),
  }
}
