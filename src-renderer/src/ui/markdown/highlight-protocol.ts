/** What crosses between the page and the highlight worker. */
import type { HighlightLines } from './highlight-core'

export interface HighlightRequest {
  id: number
  code: string
  /** The fence's language name, as written (`ts`, `C++`, …). */
  lang: string
}

export type HighlightReply =
  /** The grammar is loaded; tokenizing (the part that can run away) starts now. */
  | { id: number; kind: 'started' }
  /** `lines` is null when the language is not one we highlight, or the code is too large. */
  | { id: number; kind: 'done'; lines: HighlightLines | null }
  | { id: number; kind: 'error'; message: string }
