/**
 * The knowledge base: files and folders a project (or an assistant) draws on, the status of
 * every file in its index, and what a search over it returns (`search_knowledge`, `cairn
 * knowledge search`, the window's Sources).
 */
import { z } from 'zod'

/** Whose sources they are: a project's or an assistant's, by id. */
export const knowledgeOwnerSchema = z.object({
  kind: z.enum(['project', 'assistant']),
  id: z.string().min(1).max(200),
})
export type KnowledgeOwner = z.infer<typeof knowledgeOwnerSchema>

/** `indexed` with its chunks; `skipped` with why (binary, unsupported, too large); `failed` with the error. */
export type KnowledgeFileState = 'pending' | 'indexed' | 'skipped' | 'failed'

export interface KnowledgeFile {
  path: string
  state: KnowledgeFileState
  size: number
  chunks: number
  /** why it was skipped or what failed */
  reason: string | null
  indexedAt: number | null
}

export interface KnowledgeSource {
  id: string
  owner: KnowledgeOwner
  /** the absolute path of the file or folder as added */
  path: string
  kind: 'file' | 'folder'
  addedAt: number
  /** what the source itself says went wrong (the folder is gone, a loop of links) */
  problem: string | null
  counts: Record<KnowledgeFileState, number>
  chunks: number
}

/** Where a chunk is in its file: a PDF page, or a range of lines (1-based, inclusive). */
export type ChunkLocation = { page: number } | { startLine: number; endLine: number }

export interface KnowledgeHit {
  file: string
  location: ChunkLocation
  /** the heading the chunk stands under, when its file has headings */
  heading: string | null
  text: string
  /** higher is better: BM25's (negated), or the fused reciprocal rank */
  score: number
}

export interface KnowledgeSearchResult {
  hits: KnowledgeHit[]
  /** `bm25` alone, or `hybrid` (BM25 and vectors fused) */
  mode: 'bm25' | 'hybrid'
  /** why the search is BM25 alone although an embeddings endpoint is configured */
  fallback: string | null
}

/** What the index is doing: files done of those found, for a progress bar. */
export interface KnowledgeProgress {
  running: boolean
  done: number
  total: number
  current: string | null
}

/** `3:12-40` or `p. 4`: a location as the CLI and the tool write it. */
export function formatLocation(location: ChunkLocation): string {
  return 'page' in location
    ? `page ${location.page}`
    : location.startLine === location.endLine
      ? `line ${location.startLine}`
      : `lines ${location.startLine}-${location.endLine}`
}
