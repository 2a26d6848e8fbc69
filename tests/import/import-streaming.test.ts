/**
 * An import streams its file (issue 21): a generated export much larger than the heap it
 * may use imports completely, in its worker thread, with progress, while the heap of the
 * process that reads it stays bounded (sampled at every progress report). The size here is
 * kept reasonable for CI; `npm run bench:ui` imports a larger one and reports the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { importFile } from '../../src-main/adapters/import/import-file'
import { importInWorker } from '../../src-main/adapters/import/run-import'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import type { ImportProgress } from '../../src-preload/contract/dto'
import { writeGeneratedExport } from '../support/generated-export'

let dir: string
let file: string
let size: number
const SHAPE = { conversations: 300, messages: 8, chars: 12_000 }

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-import-stream-'))
  file = join(dir, 'conversations.json')
  size = await writeGeneratedExport(file, SHAPE)
}, 120_000)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

it(
  'imports a large export with a bounded heap, conversation by conversation',
  { timeout: 300_000 },
  async () => {
    expect(size).toBeGreaterThan(25_000_000)
    const store = createSessionStore(join(dir, 'in-process'))
    global.gc?.()
    const before = process.memoryUsage().heapUsed
    let peak = before
    const summary = await importFile(store, file, {
      progressEveryMs: 0,
      onProgress: () => void (peak = Math.max(peak, process.memoryUsage().heapUsed)),
    })
    store.close()
    expect(summary).toMatchObject({ conversations: 300, created: 300, skipped: [] })
    const grew = peak - before
    console.log(
      `streamed ${(size / 1e6).toFixed(0)} MB, ${summary.messages} messages; heap grew at most ${(grew / 1e6).toFixed(1)} MB`,
    )
    // the file is ~30 MB: holding it (as a string, then parsed) would take several times that
    expect(grew).toBeLessThan(size / 2)
  },
)

it(
  'runs in a worker thread with progress, and cancelling keeps what was written',
  { timeout: 300_000 },
  async () => {
    const dataDir = join(dir, 'worker')
    const progress: ImportProgress[] = []
    const abort = new AbortController()
    const summary = await importInWorker({ dataDir }, file, {
      signal: abort.signal,
      onProgress: (p) => {
        progress.push(p)
        if (p.conversations >= 50) abort.abort()
      },
    })
    expect(summary.cancelled).toBe(true)
    expect(summary.created).toBeGreaterThanOrEqual(50)
    expect(summary.created).toBeLessThan(300)
    expect(progress[0]!.totalBytes).toBe(size)
    expect(progress.at(-1)!.bytes).toBeGreaterThan(0)
    const store = createSessionStore(dataDir)
    expect(store.listSessions({ limit: 1 }).total).toBe(summary.created)
    store.close()
    // again: the first ones are there, the rest comes
    const rest = await importInWorker({ dataDir }, file)
    expect(rest).toMatchObject({ created: 300 - summary.created, unchanged: summary.created })
  },
)
