import type { StoredMessage } from '../../../src-preload/contract/dto'

/**
 * Which stored messages a summary stands in for, and which must stay whatever covers
 * them. A summary records the seqs it covers (`covers`); where ranges overlap, the newest
 * summary is in force (a new summary takes the earlier ones in its range into account). Pinned messages stay verbatim, together with what
 * they cannot be sent without: an assistant message with tool calls and all its results.
 */
export interface Coverage {
  /** seq of a covered message → the summary that stands in for it */
  coveredBy: Map<number, StoredMessage>
  /** the summaries in force, by their first covered seq */
  active: StoredMessage[]
  /** seqs kept verbatim inside covered ranges (pinned, with their tool calls and results) */
  kept: Set<number>
}

/**
 * `history`: one branch with the summaries that apply to it (`history-tree.ts`), which may
 * have been written on another branch that holds the same messages.
 */
export function coverage(history: readonly StoredMessage[]): Coverage {
  const inForce = history.filter((m) => m.kind === 'summary' && m.covers)
  // the newest first: an older summary that overlaps a newer one was taken into it
  inForce.sort((a, b) => b.seq - a.seq)
  const active: StoredMessage[] = []
  for (const s of inForce) {
    const { from, to } = s.covers!
    if (active.some((t) => from <= t.covers!.to && t.covers!.from <= to)) continue
    active.push(s)
  }
  active.sort((a, b) => a.covers!.from - b.covers!.from)
  const coveredBy = new Map<number, StoredMessage>()
  let a = 0
  for (const m of history) {
    while (a < active.length && active[a]!.covers!.to < m.seq) a++
    const s = active[a]
    if (s && m.seq >= s.covers!.from && m.seq <= s.covers!.to && m !== s) coveredBy.set(m.seq, s)
  }
  return { coveredBy, active, kept: pinnedUnits(history) }
}

/** Seqs of pinned messages and of the tool calls and results that go with them. */
export function pinnedUnits(history: readonly StoredMessage[]): Set<number> {
  const kept = new Set<number>()
  if (!history.some((m) => m.pinned)) return kept
  const callOwner = new Map<string, StoredMessage>()
  const results = new Map<string, StoredMessage[]>()
  for (const m of history) {
    for (const c of m.toolCalls ?? []) callOwner.set(c.id, m)
    if (m.role === 'tool' && m.toolCallId) {
      const list = results.get(m.toolCallId) ?? []
      list.push(m)
      results.set(m.toolCallId, list)
    }
  }
  const keepRound = (assistant: StoredMessage): void => {
    kept.add(assistant.seq)
    for (const c of assistant.toolCalls ?? [])
      for (const r of results.get(c.id) ?? []) kept.add(r.seq)
  }
  for (const m of history) {
    if (!m.pinned) continue
    kept.add(m.seq)
    if (m.toolCalls && m.toolCalls.length > 0) keepRound(m)
    const owner = m.toolCallId ? callOwner.get(m.toolCallId) : undefined
    if (owner) keepRound(owner)
  }
  return kept
}
