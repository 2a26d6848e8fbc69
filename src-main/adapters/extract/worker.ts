/**
 * The extraction worker (a worker thread with its own memory limit): one document's text,
 * then it exits. Built as `attachment-worker.js` beside each host's `index.js`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { extractText, type Extracted } from './extract-text'

interface Job {
  bytes: Uint8Array
  mediaType: string
}

const job = workerData as Job
extractText(job.bytes, job.mediaType).then(
  (result) => parentPort?.postMessage(result),
  (e: unknown) =>
    parentPort?.postMessage({
      ok: false,
      problem: 'damaged',
      message: `it cannot be read (${e instanceof Error ? e.message : String(e)})`,
    } satisfies Extracted),
)
