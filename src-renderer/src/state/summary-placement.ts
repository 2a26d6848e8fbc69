/**
 * Where a summary shows in the conversation: in place of the messages it stands in for
 * (its `covers` range), not at the end where it was saved. Collapsed, the covered messages
 * are hidden behind it (pinned ones stay, with the results of their tool calls); expanded,
 * they follow it. Where summaries overlap, the newest is the one in force (as in the
 * request the model gets); the others are not shown. The stored messages are not changed.
 */
import type { StoredMessage } from '../../../src-preload/contract/dto'

export interface SummaryInfo {
  /** covered messages among those loaded */
  covered: number
  expanded: boolean
}

function inForce(messages: readonly StoredMessage[]): StoredMessage[] {
  const all = messages.filter((m) => m.kind === 'summary' && m.covers)
  all.sort((a, b) => b.seq - a.seq)
  const active: StoredMessage[] = []
  for (const s of all) {
    const { from, to } = s.covers!
    if (!active.some((t) => from <= t.covers!.to && t.covers!.from <= to)) active.push(s)
  }
  return active
}

export function placeSummaries(
  messages: readonly StoredMessage[],
  expanded: ReadonlySet<string>,
): { messages: readonly StoredMessage[]; info: Map<string, SummaryInfo> } {
  const info = new Map<string, SummaryInfo>()
  if (!messages.some((m) => m.kind === 'summary' && m.covers)) return { messages, info }
  const active = inForce(messages)
  const keptCalls = new Set<string>()
  for (const m of messages) if (m.pinned) for (const c of m.toolCalls ?? []) keptCalls.add(c.id)
  const coveredBy = (m: StoredMessage): StoredMessage | undefined =>
    active.find((s) => m !== s && m.seq >= s.covers!.from && m.seq <= s.covers!.to)
  const out: StoredMessage[] = []
  const placed = new Set<StoredMessage>()
  for (const m of messages) {
    if (m.kind === 'summary' && m.covers) continue // placed where its range begins
    const s = coveredBy(m)
    if (s) {
      if (!placed.has(s)) {
        placed.add(s)
        out.push(s)
        info.set(s.id, { covered: 0, expanded: expanded.has(s.id) })
      }
      info.get(s.id)!.covered++
      const stays = m.pinned === true || (m.toolCallId !== null && keptCalls.has(m.toolCallId))
      if (!expanded.has(s.id) && !stays) continue
    }
    out.push(m)
  }
  return { messages: out, info }
}
