import type { StoredMessage } from '../../../src-preload/contract/dto'
import { estimateTokens } from '../llm/estimate'
import { coverage } from './summary-ranges'

/**
 * What a compaction summarizes: the middle of the conversation. Kept verbatim: system
 * messages, the first user message, pinned messages (with their tool calls and results)
 * and the last `keepExchanges` user messages with everything after them. The range never
 * ends between a tool call and its results, nor inside an earlier summary's range (a new
 * summary takes an earlier one in, with the earlier summary's text standing for it). It
 * grows from its start until the request would be down to `targetTokens`.
 */
export interface CompactionPlan {
  /** first and last seq covered */
  from: number
  to: number
  /** the messages to summarize, in order (earlier summaries stand for what they cover) */
  covered: StoredMessage[]
}

export interface PlanOptions {
  /** the estimated tokens of today's request */
  currentTokens: number
  /** where to get down to */
  targetTokens: number
  /** what the summary itself is expected to take */
  summaryTokens: number
  keepExchanges?: number
}

export const KEEP_EXCHANGES = 5

/** `branch`: the branch the conversation goes on, with the summaries that apply to it */
export function planCompaction(
  branch: readonly StoredMessage[],
  opts: PlanOptions,
): CompactionPlan | null {
  let path = branch
  // an older summary without a range stands in for everything before it
  for (let i = path.length - 1; i >= 0; i--) {
    if (path[i]!.kind === 'summary' && !path[i]!.covers) {
      path = path.slice(i + 1)
      break
    }
  }
  const cov = coverage(path)
  const msgs = path.filter((m) => m.kind === 'message')
  const users = msgs.flatMap((m, i) => (m.role === 'user' ? [i] : []))
  const keep = Math.max(1, opts.keepExchanges ?? KEEP_EXCHANGES)
  if (users.length <= keep) return null
  const first = users[0]!
  const tailStart = users[users.length - keep]!
  const covered: StoredMessage[] = []
  const seenSummaries = new Set<StoredMessage>()
  let saved = 0
  let best: { end: number; covered: number } | null = null
  for (let i = first + 1; i < tailStart; i++) {
    const m = msgs[i]!
    if (m.role === 'system') continue
    const by = cov.coveredBy.get(m.seq)
    if (!cov.kept.has(m.seq)) {
      if (!by) {
        covered.push(m)
        saved += approxTokens(m)
      } else if (!seenSummaries.has(by)) {
        seenSummaries.add(by)
        covered.push(by)
        saved += approxTokens(by)
      }
    }
    const next = msgs[i + 1]
    const boundary =
      next !== undefined &&
      next.role !== 'tool' &&
      !(by !== undefined && cov.coveredBy.get(next.seq) === by)
    if (!boundary) continue
    best = { end: i, covered: covered.length }
    if (opts.currentTokens - saved + opts.summaryTokens <= opts.targetTokens) break
  }
  if (!best || best.covered === 0) return null
  const startSeq = msgs.slice(first + 1).find((m) => m.role !== 'system')!.seq
  return { from: startSeq, to: msgs[best.end]!.seq, covered: covered.slice(0, best.covered) }
}

/** about what a stored message takes in the request */
function approxTokens(m: StoredMessage): number {
  let chars = m.content.length
  for (const c of m.toolCalls ?? []) chars += c.name.length + c.arguments.length
  return estimateTokens(chars)
}
