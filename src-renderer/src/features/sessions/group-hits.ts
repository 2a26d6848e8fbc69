/**
 * Search hits grouped by session: each session once (in the order its first hit came),
 * its message hits beneath it.
 */
import type { SearchHit } from '../../../../src-preload/contract/dto'

export interface HitGroup {
  sessionId: string
  title: string
  /** the title with its matches marked, when the title matched */
  titleSnippet: string | null
  hits: SearchHit[]
}

export function groupHits(hits: readonly SearchHit[]): HitGroup[] {
  const groups = new Map<string, HitGroup>()
  for (const h of hits) {
    let g = groups.get(h.sessionId)
    if (!g) {
      g = { sessionId: h.sessionId, title: h.sessionTitle, titleSnippet: null, hits: [] }
      groups.set(h.sessionId, g)
    }
    if (h.messageId === null) g.titleSnippet = h.snippet
    else g.hits.push(h)
  }
  return [...groups.values()]
}
