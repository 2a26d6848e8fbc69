/**
 * The knowledge index at scale: 10 000 generated files (200 MB of text: Markdown with
 * headings, code, prose; pseudo-words with Zipf-like frequencies) indexed with BM25 by the
 * real index and its worker thread, reporting MB/s (target ≥ 20) and the process's peak
 * memory while indexing (every thread: the worker's heap is in the same process); then
 * `search` percentiles at that size (about 200 000 chunks; target p95 ≤ 30 ms) over
 * 300 queries of two to six words.
 *
 * `npm run bench:knowledge` (`-- --files <n>` for a smaller run).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { KnowledgeIndex } from '../src-main/adapters/knowledge/knowledge-index'
import { rng, vocabulary, zipfSampler } from './search'

const FILES = Number(process.argv[process.argv.indexOf('--files') + 1]) || 10_000
const FILE_BYTES = 20 * 1024
const FOLDERS = 100
const QUERIES = 300
const WARMUP = 20
const INDEX_TARGET_MBS = 20
const SEARCH_TARGET_MS = 30

export interface KnowledgeBenchResult {
  files: number
  bytes: number
  chunks: number
  indexSeconds: number
  mbPerSecond: number
  /** the process's CPU time while indexing (every thread), and MB per CPU second */
  indexCpuSeconds: number
  mbPerCpuSecond: number
  peakRssMb: number
  baseRssMb: number
  search: { p50Ms: number; p95Ms: number; cpuMsPerQuery: number; meanHits: number }
  pass: boolean
}

/** one file of about FILE_BYTES: a Markdown document, a code file or prose */
function fileText(i: number, sentence: () => string): { name: string; text: string } {
  const parts: string[] = []
  let size = 0
  const kind = i % 3
  while (size < FILE_BYTES) {
    let block: string
    if (kind === 0 && parts.length % 4 === 0) block = `## ${sentence().slice(0, 40)}`
    else if (kind === 1) block = `function f${parts.length}() {\n  return "${sentence()}"\n}`
    else block = `${sentence()} ${sentence()} ${sentence()} ${sentence()} ${sentence()}`
    parts.push(block)
    size += block.length + 2
  }
  const ext = kind === 0 ? 'md' : kind === 1 ? 'ts' : 'txt'
  return { name: `doc-${i}.${ext}`, text: parts.join('\n\n') }
}

function writeCorpus(root: string): { bytes: number; queries: string[] } {
  const random = rng(22)
  const words = vocabulary(random)
  const word = zipfSampler(words, random)
  const sentence = (): string =>
    Array.from({ length: 8 + Math.floor(random() * 12) }, word).join(' ') + '.'
  let bytes = 0
  for (let f = 0; f < FOLDERS; f++) mkdirSync(join(root, `folder-${f}`))
  for (let i = 0; i < FILES; i++) {
    const { name, text } = fileText(i, sentence)
    writeFileSync(join(root, `folder-${i % FOLDERS}`, name), text)
    bytes += Buffer.byteLength(text)
  }
  const queries = Array.from({ length: QUERIES + WARMUP }, () =>
    Array.from({ length: 2 + Math.floor(random() * 5) }, word).join(' '),
  )
  return { bytes, queries }
}

const percentile = (sorted: number[], p: number): number =>
  sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? NaN

export async function benchKnowledge(): Promise<KnowledgeBenchResult> {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-bench-knowledge-'))
  const docs = join(dir, 'docs')
  mkdirSync(docs)
  try {
    const { bytes, queries } = writeCorpus(docs)
    const kb = new KnowledgeIndex({ dataDir: join(dir, 'data'), sizeLimit: () => 50 * 1024 * 1024 })
    const owner = { kind: 'project' as const, id: 'bench' }
    const baseRss = process.memoryUsage().rss
    let peakRss = baseRss
    const sampler = setInterval(() => (peakRss = Math.max(peakRss, process.memoryUsage().rss)), 50)
    const t0 = performance.now()
    const cpu0 = process.cpuUsage()
    const source = await kb.addSource(owner, docs)
    await kb.whenIdle()
    const indexSeconds = (performance.now() - t0) / 1000
    const cpu = process.cpuUsage(cpu0)
    const indexCpuSeconds = (cpu.user + cpu.system) / 1e6
    clearInterval(sampler)
    const chunks = kb.sources(owner).find((s) => s.id === source.id)?.chunks ?? 0
    const times: number[] = []
    let hits = 0
    let queryCpu = 0
    for (const [i, q] of queries.entries()) {
      const s = performance.now()
      const c = process.cpuUsage()
      const r = await kb.search(owner, q, 8)
      if (i >= WARMUP) {
        times.push(performance.now() - s)
        const used = process.cpuUsage(c)
        queryCpu += (used.user + used.system) / 1000
        hits += r.hits.length
      }
    }
    await kb.close()
    times.sort((a, b) => a - b)
    const mbPerSecond = bytes / (1024 * 1024) / indexSeconds
    const search = {
      p50Ms: percentile(times, 50),
      p95Ms: percentile(times, 95),
      cpuMsPerQuery: queryCpu / QUERIES,
      meanHits: hits / QUERIES,
    }
    return {
      files: FILES,
      bytes,
      chunks,
      indexSeconds,
      mbPerSecond,
      indexCpuSeconds,
      mbPerCpuSecond: bytes / (1024 * 1024) / indexCpuSeconds,
      peakRssMb: peakRss / (1024 * 1024),
      baseRssMb: baseRss / (1024 * 1024),
      search,
      pass: mbPerSecond >= INDEX_TARGET_MBS && search.p95Ms <= SEARCH_TARGET_MS,
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export function printKnowledge(r: KnowledgeBenchResult): void {
  const mb = (r.bytes / (1024 * 1024)).toFixed(0)
  console.log(
    `  indexed ${r.files} files, ${mb} MB of text, into ${r.chunks} chunks in ${r.indexSeconds.toFixed(1)} s`,
  )
  console.log(
    `  BM25 indexing: ${r.mbPerSecond.toFixed(1)} MB/s (target ≥ ${INDEX_TARGET_MBS}); ${r.indexCpuSeconds.toFixed(1)} s of CPU, ${r.mbPerCpuSecond.toFixed(1)} MB per CPU second`,
  )
  console.log(
    `  peak memory while indexing: ${r.peakRssMb.toFixed(0)} MB RSS (${r.baseRssMb.toFixed(0)} MB before)`,
  )
  console.log(
    `  search at ${r.chunks} chunks: p50 ${r.search.p50Ms.toFixed(2)} ms, p95 ${r.search.p95Ms.toFixed(2)} ms (target ≤ ${SEARCH_TARGET_MS}), ${r.search.cpuMsPerQuery.toFixed(2)} ms of CPU a query, ${r.search.meanHits.toFixed(1)} hits a query`,
  )
  console.log(`  ${r.pass ? 'PASS' : 'FAIL'}`)
}

if (import.meta.url === pathToFileURL(resolve(process.argv[1] ?? '')).href) {
  const load = (await import('node:os')).loadavg()
  console.log(`Knowledge index (load average ${load.map((l) => l.toFixed(1)).join(' ')})`)
  const r = await benchKnowledge()
  printKnowledge(r)
  process.exitCode = r.pass ? 0 : 1
}
