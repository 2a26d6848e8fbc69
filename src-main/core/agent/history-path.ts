import type { StoredMessage } from '../../../src-preload/contract/dto'

/**
 * The newest path through a session's history. The stored history is append-only: a user
 * message that replaces an earlier one (regenerate, edit and resend, retry) carries
 * `supersedes = <the earlier user message's seq>`, and every message with a seq in
 * [supersedes, its own seq) is an earlier version — kept and shown, never sent to the
 * model. The request view, the `replaces` check of `chat.send` and the Markdown export all
 * follow this one definition.
 */
type PathMessage = Pick<StoredMessage, 'seq' | 'supersedes'>

/** The seqs of every message on an earlier version. */
export function supersededSeqs(history: readonly PathMessage[]): Set<number> {
  const out = new Set<number>()
  const ranges = mergedRanges(history)
  if (ranges.length === 0) return out
  for (const m of history) if (inRanges(ranges, m.seq)) out.add(m.seq)
  return out
}

/** [from, to) ranges of superseded seqs, sorted and merged */
function mergedRanges(history: readonly PathMessage[]): [number, number][] {
  const ranges: [number, number][] = []
  for (const m of history) {
    if (m.supersedes !== null && m.supersedes < m.seq) ranges.push([m.supersedes, m.seq])
  }
  ranges.sort((a, b) => a[0] - b[0])
  const merged: [number, number][] = []
  for (const r of ranges) {
    const last = merged[merged.length - 1]
    if (last && r[0] <= last[1]) last[1] = Math.max(last[1], r[1])
    else merged.push([r[0], r[1]])
  }
  return merged
}

function inRanges(ranges: readonly [number, number][], seq: number): boolean {
  let lo = 0
  let hi = ranges.length - 1
  while (lo <= hi) {
    const mid = (lo + hi) >> 1
    const [from, to] = ranges[mid]!
    if (seq < from) hi = mid - 1
    else if (seq >= to) lo = mid + 1
    else return true
  }
  return false
}

/** The history without earlier versions, in the same order. */
export function newestPath<T extends PathMessage>(history: readonly T[]): T[] {
  const superseded = supersededSeqs(history)
  return superseded.size === 0 ? history.slice() : history.filter((m) => !superseded.has(m.seq))
}

/** The newest user message on the newest path (the one a new message may replace), or null. */
export function newestUserMessage<T extends PathMessage & Pick<StoredMessage, 'role' | 'kind'>>(
  history: readonly T[],
): T | null {
  const path = newestPath(history)
  for (let i = path.length - 1; i >= 0; i--) {
    const m = path[i]!
    if (m.role === 'user' && m.kind === 'message') return m
  }
  return null
}

/**
 * When `text` asks again what the newest user message asked and that question got no
 * whole answer (its turn failed, was stopped or was cut off), the seq the new message
 * replaces: a retry, so that the question is not sent twice. Otherwise null.
 */
export function retriedSeq(
  history: readonly (PathMessage & Pick<StoredMessage, 'role' | 'kind' | 'content' | 'status'>)[],
  text: string,
): number | null {
  const path = newestPath(history)
  for (let i = path.length - 1; i >= 0; i--) {
    const m = path[i]!
    if (m.kind !== 'message') continue
    if (m.role === 'assistant' && (m.status === 'complete' || m.status === 'truncated')) return null
    if (m.role === 'user') return m.content === text ? m.seq : null
  }
  return null
}

export type ReplaceCheck =
  { ok: true; supersedes: number } | { ok: false; code: 'not_found' | 'conflict'; message: string }

/**
 * Whether the message `id` may be replaced by a new user message: it must be the newest
 * user message on the newest path. Gives the seq the new message supersedes.
 */
export function checkReplaces(
  history: readonly Pick<StoredMessage, 'id' | 'seq' | 'supersedes' | 'role' | 'kind'>[],
  id: string,
): ReplaceCheck {
  const target = history.find((m) => m.id === id)
  if (!target) {
    return { ok: false, code: 'not_found', message: `There is no message "${id}" in this session.` }
  }
  const newest = newestUserMessage(history)
  if (!newest || newest.id !== target.id) {
    const what =
      target.role !== 'user' || target.kind !== 'message'
        ? 'it is not a user message'
        : supersededSeqs(history).has(target.seq)
          ? 'it is an earlier version that was already replaced'
          : 'a later user message follows it'
    return {
      ok: false,
      code: 'conflict',
      message: `Only the newest user message of the conversation can be replaced; message ${target.seq} cannot: ${what}.`,
    }
  }
  return { ok: true, supersedes: target.seq }
}
