/**
 * The import worker (a worker thread): reads one export file and writes its conversations
 * through a connection of its own to `<dataDir>/cairn.db`, so that the window and the
 * terminal stay responsive however large the file is. Built as `import-worker.js` beside
 * each host's `index.js`. It posts progress, then the summary or the error; a `cancel`
 * message stops it between two conversations.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { expectedInfo } from '../../core/errors'
import { createSessionStore } from '../sqlite/session-store'
import { importFile } from './import-file'
import type { ImportDatabase, ImportWorkerMessage } from './run-import'

interface Job {
  db: ImportDatabase
  file: string
  name?: string
}

const job = workerData as Job
const abort = new AbortController()
parentPort?.on('message', (m: unknown) => {
  if (m === 'cancel') abort.abort()
})
const post = (m: ImportWorkerMessage): void => parentPort?.postMessage(m)

async function run(): Promise<void> {
  const store = createSessionStore(
    job.db.dataDir,
    job.db.nativeBinding ? { nativeBinding: job.db.nativeBinding } : {},
  )
  try {
    const summary = await importFile(store, job.file, {
      signal: abort.signal,
      ...(job.name ? { name: job.name } : {}),
      onProgress: (progress) => post({ type: 'progress', progress }),
    })
    post({ type: 'done', summary })
  } finally {
    store.close()
  }
}

run().catch((e: unknown) => {
  const info = expectedInfo(e)
  post(
    info
      ? { type: 'failed', error: info }
      : { type: 'crashed', message: e instanceof Error ? (e.stack ?? e.message) : String(e) },
  )
})
