/**
 * The extraction worker (a worker thread with its own memory limit): one document's text,
 * or a PDF's first pages drawn as pictures, then it exits. Built as `attachment-worker.js`
 * beside each host's `index.js`.
 */
import { parentPort, workerData } from 'node:worker_threads'
import { extractText, messageOf, type Extracted } from './extract-text'
import { pdfPages, type PdfPages } from './pdf-pages'

export type WorkerJob =
  | { job: 'text'; bytes: Uint8Array; mediaType: string }
  | { job: 'pdfPages'; bytes: Uint8Array; maxPages: number; longSide: number }

const job = workerData as WorkerJob
const work: Promise<Extracted | PdfPages> =
  job.job === 'pdfPages'
    ? pdfPages(job.bytes, job.maxPages, job.longSide)
    : extractText(job.bytes, job.mediaType)
work.then(
  (result) => parentPort?.postMessage(result),
  (e: unknown) =>
    parentPort?.postMessage({
      ok: false,
      problem: 'damaged',
      message: `it cannot be read (${messageOf(e)})`,
    } satisfies Extracted),
)
