/**
 * `KnowledgeBase` in memory, for services tested without a data directory: a test puts
 * chunks in (`put`); search counts the query's words in each chunk. No worker, no files.
 */
import type {
  KnowledgeFile,
  KnowledgeHit,
  KnowledgeOwner,
  KnowledgeProgress,
  KnowledgeSearchResult,
  KnowledgeSource,
} from '../../src-preload/contract/knowledge'
import { ExpectedError } from '../../src-main/core/errors'
import type { KnowledgeBase } from '../../src-main/core/service-ports'

interface Entry {
  source: KnowledgeSource
  hits: KnowledgeHit[]
}

export class MemoryKnowledge implements KnowledgeBase {
  private readonly entries: Entry[] = []
  /** the next searches answer BM25 alone, saying this */
  fallback: string | null = null

  /** a source of `owner` at `file` holding these chunks (lines 1…) */
  put(owner: KnowledgeOwner, file: string, chunks: string[]): KnowledgeSource {
    const source: KnowledgeSource = {
      id: `src-${this.entries.length + 1}`,
      owner,
      path: file,
      kind: 'file',
      addedAt: 0,
      problem: null,
      counts: { pending: 0, indexed: 1, skipped: 0, failed: 0 },
      chunks: chunks.length,
    }
    const hits = chunks.map((text, i) => ({
      file,
      location: { startLine: i + 1, endLine: i + 1 },
      heading: null,
      text,
      score: 0,
    }))
    this.entries.push({ source, hits })
    return source
  }

  addSource(owner: KnowledgeOwner, path: string): Promise<KnowledgeSource> {
    return Promise.resolve(this.put(owner, path, []))
  }
  removeSource(idOrPath: string): Promise<void> {
    const i = this.entries.findIndex((e) => e.source.id === idOrPath || e.source.path === idOrPath)
    if (i < 0)
      return Promise.reject(new ExpectedError('not_found', `No knowledge source is ${idOrPath}.`))
    this.entries.splice(i, 1)
    return Promise.resolve()
  }
  reindex(): Promise<void> {
    return Promise.resolve()
  }
  retryFile(): Promise<void> {
    return Promise.resolve()
  }
  sources(owner?: KnowledgeOwner): KnowledgeSource[] {
    return this.entries
      .map((e) => e.source)
      .filter((s) => !owner || (s.owner.kind === owner.kind && s.owner.id === owner.id))
  }
  files(sourceId: string): KnowledgeFile[] {
    const e = this.entries.find((x) => x.source.id === sourceId)
    if (!e) return []
    return [
      {
        path: e.source.path,
        state: 'indexed',
        size: 0,
        chunks: e.hits.length,
        reason: null,
        indexedAt: 0,
      },
    ]
  }
  chunks(sourceId: string): KnowledgeHit[] {
    return this.entries.find((x) => x.source.id === sourceId)?.hits ?? []
  }
  search(owner: KnowledgeOwner, query: string, limit = 8): Promise<KnowledgeSearchResult> {
    const words = query.toLowerCase().split(/\W+/).filter(Boolean)
    const hits = this.entries
      .filter((e) => e.source.owner.kind === owner.kind && e.source.owner.id === owner.id)
      .flatMap((e) => e.hits)
      .map((h) => ({ ...h, score: words.filter((w) => h.text.toLowerCase().includes(w)).length }))
      .filter((h) => h.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, limit)
    return Promise.resolve({ hits, mode: 'bm25', fallback: this.fallback })
  }
  progress(): KnowledgeProgress {
    return { running: false, done: 0, total: 0, current: null }
  }
  onChange(): () => void {
    return () => {}
  }
  whenIdle(): Promise<void> {
    return Promise.resolve()
  }
  start(): void {}
  close(): Promise<void> {
    return Promise.resolve()
  }
}
