/**
 * Runs an import in a worker thread (`worker.ts`), off the thread that serves the window
 * or the terminal: progress as it goes, the summary at the end; aborting `signal` asks the
 * worker to stop between two conversations (what it wrote stays, and the summary says
 * `cancelled`).
 */
import { Worker } from 'node:worker_threads'
import type { ImportProgress, ImportSummary } from '../../../src-preload/contract/dto'
import type { ErrorInfo } from '../../../src-preload/contract/errors'
import { ExpectedError } from '../../core/errors'
import { workerEntry } from '../worker-entry'

export type ImportWorkerMessage =
  | { type: 'progress'; progress: ImportProgress }
  | { type: 'done'; summary: ImportSummary }
  | { type: 'failed'; error: ErrorInfo }
  | { type: 'crashed'; message: string }

export interface RunImportOptions {
  onProgress?: (p: ImportProgress) => void
  signal?: AbortSignal
  /** the file's name as the user knows it, for errors */
  name?: string
}

/** where the worker writes: the data directory, and the Electron build of better-sqlite3 */
export interface ImportDatabase {
  dataDir: string
  nativeBinding?: string
}

export function importInWorker(
  db: ImportDatabase,
  file: string,
  opts: RunImportOptions = {},
): Promise<ImportSummary> {
  const entry = workerEntry(import.meta.url, 'import-worker', './worker.ts')
  const worker = new Worker(entry.code, {
    eval: entry.eval,
    workerData: { db, file, name: opts.name },
    stdout: true,
    stderr: true,
  })
  worker.stdout.resume()
  worker.stderr.resume()
  const cancel = (): void => worker.postMessage('cancel')
  if (opts.signal?.aborted) cancel()
  opts.signal?.addEventListener('abort', cancel, { once: true })
  return new Promise<ImportSummary>((resolve, reject) => {
    let settled = false
    const settle = (fn: () => void): void => {
      if (settled) return
      settled = true
      opts.signal?.removeEventListener('abort', cancel)
      fn()
      void worker.terminate()
    }
    worker.on('message', (m: ImportWorkerMessage) => {
      if (m.type === 'progress') opts.onProgress?.(m.progress)
      else if (m.type === 'done') settle(() => resolve(m.summary))
      else if (m.type === 'failed')
        settle(() =>
          reject(
            new ExpectedError(m.error.code, m.error.message, { details: m.error.details as never }),
          ),
        )
      else settle(() => reject(new Error(`the import failed: ${m.message}`)))
    })
    worker.once('error', (e) => settle(() => reject(e)))
    worker.once('exit', (code) =>
      settle(() => reject(new Error(`the import stopped (its worker exited with ${code})`))),
    )
  })
}
