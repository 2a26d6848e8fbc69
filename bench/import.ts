/**
 * Importing an export: a generated ChatGPT-shaped `conversations.json` (`--conversations`,
 * default 2 000, of 8 messages of 2 000 characters, a branch in every tenth; about 35 MB)
 * imported by the worker thread as `cairn sessions import` does, into an empty data
 * directory. Reports conversations and MB per second, and the process's peak memory (the
 * worker's included: sampled every 50 ms) next to the file's size: streaming keeps it flat
 * however large the file is. `--size-mb <n>` sets the message length to reach about that
 * size instead.
 *
 * Standalone: `npm run bench:import` (or `node --import tsx bench/import.ts -- --conversations 10000`).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { importInWorker } from '../src-main/adapters/import/run-import'
import { writeGeneratedExport } from '../tests/support/generated-export'

const { values } = parseArgs({
  options: {
    conversations: { type: 'string', default: '2000' },
    'size-mb': { type: 'string' },
  },
})
const conversations = Number(values.conversations)
const messages = 8
const chars = values['size-mb']
  ? Math.max(100, Math.round((Number(values['size-mb']) * 1e6) / (conversations * messages)))
  : 2_000

const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-import-'))
try {
  const file = join(dir, 'conversations.json')
  const size = await writeGeneratedExport(file, { conversations, messages, chars })
  globalThis.gc?.()
  const base = process.memoryUsage()
  let peakRss = base.rss
  const timer = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50)
  const t0 = performance.now()
  const summary = await importInWorker({ dataDir: join(dir, 'data') }, file)
  const seconds = (performance.now() - t0) / 1000
  clearInterval(timer)
  const mb = (n: number): string => (n / 1e6).toFixed(1)
  console.log(
    `import: ${summary.created} conversations, ${summary.messages} messages, ${mb(size)} MB in ${seconds.toFixed(1)} s`,
  )
  console.log(
    `  ${(summary.created / seconds).toFixed(0)} conversations/s, ${(size / 1e6 / seconds).toFixed(1)} MB/s`,
  )
  console.log(
    `  peak memory (RSS, worker included): ${mb(peakRss)} MB, ${mb(peakRss - base.rss)} MB over the start; the file is ${mb(size)} MB (ratio ${((peakRss - base.rss) / size).toFixed(2)})`,
  )
  if (summary.created !== conversations) process.exitCode = 1
} finally {
  rmSync(dir, { recursive: true, force: true })
}
