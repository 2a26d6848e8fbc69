/** What the knowledge index's main side and its worker thread say to each other. */

export interface WorkerSetup {
  dataDir: string
  nativeBinding?: string
  sizeLimit: number
  /** for tests: the index's pages are capped (a full disk, as SQLite says it) */
  maxPageCount?: number
}

export type Job =
  /** one source (or every source), read again when `force` */
  | { type: 'sync'; id: number; sourcePk?: number; force?: boolean }
  /** one file of a source, read again (Retry) */
  | { type: 'file'; id: number; sourcePk: number; path: string }
  /** what the watcher saw change under a source */
  | { type: 'paths'; id: number; sourcePk: number; paths: string[] }
  | { type: 'remove'; id: number; sourcePk: number }

export type ToWorker =
  | Job
  | { type: 'settings'; sizeLimit: number }
  /** unwatch and close (what runs now is cut short by the worker's end) */
  | { type: 'stop' }

export type FromWorker =
  | { type: 'progress'; done: number; total: number; current: string | null }
  | { type: 'done'; id: number; error: { message: string; code: string | null } | null }
  /** the index changed (files indexed, removed): lists refresh */
  | { type: 'changed' }
  | { type: 'warning'; message: string }
