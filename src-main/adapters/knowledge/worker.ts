/**
 * The knowledge index's worker thread: it owns the index's writes. Jobs (sync a source or
 * all, the paths a watcher saw change, read one file again, remove a source) run one at a
 * time, in order. Built as `knowledge-worker.js` beside each host's `index.js`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import type { KnowledgeOwner } from '../../../src-preload/contract/knowledge'
import { IndexWriter } from './index-writer'
import { Indexer, type SourceRef } from './indexer'
import { openKnowledgeDb } from './knowledge-db'
import type { FromWorker, Job, ToWorker, WorkerSetup } from './worker-protocol'

interface SourceRow {
  pk: number
  path: string
  kind: string
  owner_kind: string
  owner_id: string
}

const setup = workerData as WorkerSetup
const port = parentPort
if (!port) throw new Error('knowledge/worker.ts runs as a worker thread')
const post = (m: FromWorker): void => port.postMessage(m)

const db = openKnowledgeDb(
  setup.dataDir,
  setup.nativeBinding ? { nativeBinding: setup.nativeBinding } : {},
)
if (setup.maxPageCount !== undefined) db.pragma(`max_page_count = ${setup.maxPageCount}`)
let sizeLimit = setup.sizeLimit
const writer = new IndexWriter(db)
let lastProgress = 0
const indexer = new Indexer({
  writer,
  sizeLimit: () => sizeLimit,
  onProgress: (done, total, current) => {
    const now = Date.now()
    if (current !== null && done > 0 && now - lastProgress < 100) return
    lastProgress = now
    post({ type: 'progress', done, total, current })
  },
})
const allSources = db.prepare<[], SourceRow>(
  'SELECT pk, path, kind, owner_kind, owner_id FROM sources',
)
const oneSource = db.prepare<[number], SourceRow>(
  'SELECT pk, path, kind, owner_kind, owner_id FROM sources WHERE pk = ?',
)
const deleteSource = db.prepare<[number]>('DELETE FROM sources WHERE pk = ?')

const refOf = (r: SourceRow): SourceRef => ({
  pk: r.pk,
  path: r.path,
  owner: { kind: r.owner_kind as KnowledgeOwner['kind'], id: r.owner_id },
})

async function run(job: Job): Promise<void> {
  switch (job.type) {
    case 'sync': {
      const rows = job.sourcePk === undefined ? allSources.all() : [oneSource.get(job.sourcePk)]
      for (const r of rows) if (r) await indexer.syncSource(refOf(r), job.force === true)
      return
    }
    case 'file': {
      const r = oneSource.get(job.sourcePk)
      if (r) await indexer.syncFile(refOf(r), job.path)
      return
    }
    case 'paths': {
      const r = oneSource.get(job.sourcePk)
      if (r) await indexer.syncPaths(refOf(r), job.paths)
      return
    }
    case 'remove':
      deleteSource.run(job.sourcePk)
      return
  }
}

// ── the queue: one job at a time ───────────────────────────────────────────────────────

const queue: Job[] = []
let running = false

function enqueue(job: Job): void {
  queue.push(job)
  if (!running) void drain()
}

async function drain(): Promise<void> {
  running = true
  while (queue.length > 0) {
    const job = queue.shift() as Job
    let error: { message: string; code: string | null } | null = null
    try {
      await run(job)
    } catch (e) {
      error = errorOf(e)
    }
    post({ type: 'done', id: job.id, error })
    post({ type: 'changed' })
  }
  running = false
}

function errorOf(e: unknown): { message: string; code: string | null } {
  const code = (e as { code?: unknown }).code
  const message = e instanceof Error ? e.message : String(e)
  if (code === 'SQLITE_FULL')
    return {
      code,
      message: `The disk is full: the index could not be written (${message}). What was indexed before is kept; free some space and choose Reindex.`,
    }
  return { code: typeof code === 'string' ? code : null, message }
}

port.on('message', (m: ToWorker) => {
  switch (m.type) {
    case 'settings':
      sizeLimit = m.sizeLimit
      return
    case 'stop':
      queue.length = 0
      if (!running) db.close()
      port.close()
      return
    default:
      enqueue(m)
  }
})
