/**
 * Runs `extractText` in a worker thread of its own, with a time limit and a memory limit, so
 * that a hostile or broken file (a PDF that loops, a bomb of compressed XML) costs that
 * worker and is said as a problem, while Cairn stays responsive.
 */
import { Worker } from 'node:worker_threads'
import { workerEntry } from '../worker-entry'
import type { Extracted } from './extract-text'
import type { PdfPages } from './pdf-pages'
import type { WorkerJob } from './worker'

export interface ExtractLimits {
  /** default 30 s */
  timeoutMs?: number
  /** the worker's heap, in MB (default 512) */
  memoryMb?: number
}

type TooComplex = { ok: false; problem: 'too_complex'; message: string }
type Failed = { ok: false; problem: 'damaged'; message: string }
export type ExtractOutcome = Extracted | TooComplex
export type PdfPagesOutcome = PdfPages | TooComplex

export const EXTRACT_TIMEOUT_MS = 30_000
export const EXTRACT_MEMORY_MB = 512

export function extractInWorker(
  bytes: Uint8Array,
  mediaType: string,
  limits: ExtractLimits = {},
): Promise<ExtractOutcome> {
  return runWorker<Extracted>({ job: 'text', bytes, mediaType }, limits)
}

/**
 * The first `maxPages` pages of a PDF drawn as PNG pictures (long side about `longSide`
 * px), in the worker under the same limits as its text.
 */
export function pdfPagesInWorker(
  bytes: Uint8Array,
  opts: { maxPages: number; longSide: number },
  limits: ExtractLimits = {},
): Promise<PdfPagesOutcome> {
  return runWorker<PdfPages>({ job: 'pdfPages', bytes, ...opts }, limits)
}

function runWorker<T>(job: WorkerJob, limits: ExtractLimits): Promise<T | TooComplex | Failed> {
  const timeoutMs = limits.timeoutMs ?? EXTRACT_TIMEOUT_MS
  const memoryMb = limits.memoryMb ?? EXTRACT_MEMORY_MB
  const entry = workerEntry(import.meta.url, 'attachment-worker', './worker.ts')
  const worker = new Worker(entry.code, {
    eval: entry.eval,
    workerData: job,
    resourceLimits: { maxOldGenerationSizeMb: memoryMb, maxYoungGenerationSizeMb: 64 },
    stdout: true,
    stderr: true,
  })
  // what a library prints is not ours to show
  worker.stdout.resume()
  worker.stderr.resume()
  return new Promise((resolve) => {
    let settled = false
    const done = (outcome: T | TooComplex | Failed): void => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      resolve(outcome)
    }
    const timer = setTimeout(
      () =>
        done({
          ok: false,
          problem: 'too_complex',
          message: `reading it took longer than ${Math.round(timeoutMs / 1000)} s`,
        }),
      timeoutMs,
    )
    worker.once('message', (m: T) => done(m))
    worker.once('error', (e: Error & { code?: string }) =>
      done(
        e.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? {
              ok: false,
              problem: 'too_complex',
              message: `reading it needed more than ${memoryMb} MB of memory`,
            }
          : { ok: false, problem: 'damaged', message: `it cannot be read (${e.message})` },
      ),
    )
    worker.once('exit', (code) =>
      done({
        ok: false,
        problem: 'damaged',
        message: `it cannot be read (the reader exited with ${code})`,
      }),
    )
  })
}
