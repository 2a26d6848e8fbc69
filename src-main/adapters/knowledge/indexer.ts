/**
 * Brings one source's part of the index up to date with its files (in the index worker):
 * files found by walking it are compared with their rows by size and time, and a changed
 * one by its hash before it is read again; new and changed files are read with the
 * attachment extractors (`fileText`: plain text here, documents in a worker of their own
 * with time and memory limits), split into chunks and written in batches; files no longer
 * there are removed. Every file ends indexed, skipped (with why) or failed (with the error).
 */
import { createHash } from 'node:crypto'
import { readFile, stat } from 'node:fs/promises'
import type { KnowledgeOwner } from '../../../src-preload/contract/knowledge'
import { fileText } from '../extract'
import { chunkStyle, chunkText } from './chunker'
import {
  scopeToken,
  type FileMeta,
  type FileOutcome,
  type FileRow,
  type IndexWriter,
} from './index-writer'
import { codeOf, walkSource, type Found } from './walker'

export interface SourceRef {
  pk: number
  path: string
  owner: KnowledgeOwner
}

export interface IndexerOptions {
  writer: IndexWriter
  /** files larger than this are skipped, with why */
  sizeLimit: () => number
  onProgress: (done: number, total: number, current: string | null) => void
}

/** a batch is written when it holds this much text or this many files */
const BATCH_CHARS = 8 * 1024 * 1024
const BATCH_FILES = 500

type Pending =
  | { kind: 'put'; meta: FileMeta; outcome: FileOutcome }
  /** the same content: only its time moved */
  | { kind: 'touch'; pk: number; mtimeMs: number }

export class Indexer {
  constructor(private readonly o: IndexerOptions) {}

  /** Every file of the source; `force`: read each again even when unchanged. */
  async syncSource(source: SourceRef, force = false): Promise<void> {
    const found: Found[] = []
    try {
      await walkSource(source.path, (f) => found.push(f))
    } catch (e) {
      const code = codeOf(e)
      const problem =
        code === 'ENOENT'
          ? 'it no longer exists'
          : code === 'EACCES' || code === 'EPERM'
            ? 'it cannot be read (permission denied)'
            : `it cannot be read (${code})`
      const known = this.o.writer.files(source.pk)
      this.o.writer.batch(() => {
        for (const row of known.values()) this.o.writer.remove(row.pk)
        this.o.writer.setProblem(source.pk, problem)
      })
      return
    }
    this.o.writer.setProblem(source.pk, null)
    const known = this.o.writer.files(source.pk)
    const present = new Set(found.map((f) => f.path))
    const gone = [...known.values()].filter((r) => !present.has(r.path))
    if (gone.length > 0) this.o.writer.batch(() => gone.forEach((r) => this.o.writer.remove(r.pk)))
    await this.indexFiles(source, found, known, force)
  }

  /** Only these paths of the source (what a watcher saw change: files, folders, either gone). */
  async syncPaths(source: SourceRef, paths: readonly string[]): Promise<void> {
    const found: Found[] = []
    for (const path of paths) {
      const st = await stat(path).catch(() => null)
      if (st?.isFile()) found.push({ path, size: st.size, mtimeMs: st.mtimeMs })
      else if (st?.isDirectory()) await walkSource(path, (f) => found.push(f)).catch(() => {})
      else if (!st) this.o.writer.batch(() => this.o.writer.removeAt(source.pk, path))
    }
    const known = new Map<string, FileRow>()
    for (const f of found) {
      const row = this.o.writer.file(source.pk, f.path)
      if (row) known.set(f.path, row)
    }
    await this.indexFiles(source, found, known, false)
  }

  /** One file, read again whatever its size and time say (Retry). */
  async syncFile(source: SourceRef, path: string): Promise<void> {
    const st = await stat(path).catch(() => null)
    if (!st?.isFile()) return this.syncPaths(source, [path])
    const row = this.o.writer.file(source.pk, path)
    const found = [{ path, size: st.size, mtimeMs: st.mtimeMs }]
    await this.indexFiles(source, found, new Map(row ? [[path, row]] : []), true)
  }

  private async indexFiles(
    source: SourceRef,
    found: readonly Found[],
    known: ReadonlyMap<string, FileRow>,
    force: boolean,
  ): Promise<void> {
    const scope = scopeToken(source.owner)
    let batch: Pending[] = []
    let batchChars = 0
    const flush = (): void => {
      const items = batch
      batch = []
      batchChars = 0
      if (items.length === 0) return
      this.o.writer.batch(() => {
        for (const p of items) {
          if (p.kind === 'touch') this.o.writer.touch(p.pk, p.mtimeMs)
          else this.o.writer.put(source.pk, scope, p.meta, p.outcome)
        }
      })
    }
    let done = 0
    for (const f of found) {
      this.o.onProgress(done, found.length, f.path)
      done++
      const row = known.get(f.path)
      if ('problem' in f) {
        const meta = { path: f.path, size: 0, mtimeMs: 0, hash: null }
        batch.push({ kind: 'put', meta, outcome: { state: 'skipped', reason: f.problem } })
        continue
      }
      if (
        !force &&
        row &&
        row.size === f.size &&
        row.mtime_ms === Math.round(f.mtimeMs) &&
        row.state !== 'failed'
      )
        continue
      const result = await this.readFile(f, force ? undefined : row)
      if (result === 'gone') {
        if (row) {
          flush()
          this.o.writer.batch(() => this.o.writer.remove(row.pk))
        }
        continue
      }
      batch.push(result)
      batchChars += result.kind === 'put' && result.outcome.state === 'indexed' ? f.size : 0
      if (batchChars >= BATCH_CHARS || batch.length >= BATCH_FILES) flush()
    }
    flush()
    this.o.onProgress(found.length, found.length, null)
  }

  /** One file read and split; 'gone' when it was deleted meanwhile. */
  private async readFile(
    f: { path: string; size: number; mtimeMs: number },
    row: FileRow | undefined,
  ): Promise<Pending | 'gone'> {
    const meta: FileMeta = { path: f.path, size: f.size, mtimeMs: f.mtimeMs, hash: null }
    const limit = this.o.sizeLimit()
    if (f.size > limit) {
      return {
        kind: 'put',
        meta,
        outcome: {
          state: 'skipped',
          reason: `it is larger than the size limit (${mb(f.size)} > ${mb(limit)}; Settings › Knowledge)`,
        },
      }
    }
    let bytes: Buffer
    try {
      bytes = await readFile(f.path)
    } catch (e) {
      const code = codeOf(e)
      if (code === 'ENOENT') return 'gone'
      const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code
      return {
        kind: 'put',
        meta,
        outcome: { state: 'failed', reason: `it cannot be read (${why})` },
      }
    }
    meta.hash = createHash('sha256').update(bytes).digest('hex')
    if (row && row.hash === meta.hash && row.state === 'indexed')
      return { kind: 'touch', pk: row.pk, mtimeMs: f.mtimeMs }
    return { kind: 'put', meta, outcome: await outcomeOf(f.path, bytes) }
  }
}

async function outcomeOf(path: string, bytes: Uint8Array): Promise<FileOutcome> {
  if (bytes.length === 0) return { state: 'skipped', reason: 'it is empty' }
  const { detected, outcome } = await fileText(bytes, {}, { textHere: true })
  switch (detected.kind) {
    case 'image':
      return {
        state: 'skipped',
        reason: `it is an image (${detected.mediaType}): images are not indexed`,
      }
    case 'archive':
      return { state: 'skipped', reason: `it is ${detected.label}: archives are not unpacked` }
    case 'unsupported':
      return {
        state: 'skipped',
        reason: `it is ${detected.label}, which Cairn does not read${detected.advice ? ` (${detected.advice})` : ''}`,
      }
    case 'document':
      break
  }
  if (!outcome) return { state: 'failed', reason: 'its text could not be read' }
  if (!outcome.ok) return { state: 'failed', reason: outcome.message }
  if (outcome.noText === true || outcome.text.trim() === '')
    return { state: 'skipped', reason: 'it has no text (a scanned PDF has only images)' }
  const style = detected.mediaType === 'text/plain' ? chunkStyle(path) : 'prose'
  return { state: 'indexed', chunks: chunkText(outcome.text, style, outcome.pageStarts) }
}

function mb(bytes: number): string {
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`
}
