/**
 * The usage ledger over the in-memory session store: the same sums as the SQLite one
 * (src-main/adapters/sqlite/usage-ledger.ts), computed by walking the messages.
 */
import type { StoredMessage } from '../../src-preload/contract/dto'
import type { UsageLedger, UsageQuery, UsageSums } from '../../src-main/core/service-ports'

interface Source {
  allMessages(): { title: string; messages: StoredMessage[] }[]
}

/** `YYYY-MM-DD` in the host's time zone, as SQLite's `date(…, 'localtime')` says it */
function day(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number): string => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`
}

export class MemoryUsageLedger implements UsageLedger {
  constructor(private readonly store: Source) {}

  sums(q: UsageQuery): UsageSums[] {
    const groups = new Map<string, UsageSums>()
    for (const { title, messages } of this.store.allMessages()) {
      for (const m of messages) {
        if (!m.usage) continue
        if (q.since !== null && m.createdAt < q.since) continue
        if (q.until !== null && m.createdAt >= q.until) continue
        const key =
          q.by === 'day'
            ? day(m.createdAt)
            : q.by === 'model'
              ? (m.model ?? '')
              : q.by === 'provider'
                ? (m.provider ?? '')
                : m.sessionId
        const priced = typeof m.cost === 'number'
        const id = JSON.stringify([key, m.provider, m.model, priced])
        let g = groups.get(id)
        if (!g) {
          g = {
            key,
            title: q.by === 'session' ? title : null,
            provider: m.provider ?? null,
            model: m.model ?? null,
            priced,
            answers: 0,
            inputTokens: 0,
            outputTokens: 0,
            cachedInputTokens: 0,
            reasoningTokens: 0,
            estimatedAnswers: 0,
            cost: 0,
          }
          groups.set(id, g)
        }
        g.answers += 1
        g.inputTokens += m.usage.inputTokens
        g.outputTokens += m.usage.outputTokens
        g.cachedInputTokens += m.usage.cachedInputTokens ?? 0
        g.reasoningTokens += m.usage.reasoningTokens ?? 0
        if (m.usage.estimated) g.estimatedAnswers += 1
        if (priced) g.cost += m.cost ?? 0
      }
    }
    return [...groups.values()]
  }
}
