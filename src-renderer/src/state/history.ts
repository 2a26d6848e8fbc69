/** Stored messages → what the conversation shows (tool results folded into their calls). */
import type { StoredMessage } from '../../../src-preload/contract/dto'
import type { ToolStatus } from './turn-reducer'

export type HistoryItem =
  | { kind: 'user'; id: string; text: string }
  | {
      kind: 'assistant'
      id: string
      text: string
      reasoning: string
      status: StoredMessage['status']
      tools: {
        id: string
        name: string
        rawArguments: string
        status: ToolStatus
        result: string | null
      }[]
    }
  | { kind: 'notice'; id: string; text: string }

export function historyItems(messages: readonly StoredMessage[]): HistoryItem[] {
  const results = new Map<string, StoredMessage>()
  for (const m of messages) if (m.role === 'tool' && m.toolCallId) results.set(m.toolCallId, m)
  const out: HistoryItem[] = []
  for (const m of messages) {
    if (m.kind === 'notice') out.push({ kind: 'notice', id: m.id, text: m.content })
    else if (m.role === 'user') out.push({ kind: 'user', id: m.id, text: m.content })
    else if (m.role === 'assistant') {
      out.push({
        kind: 'assistant',
        id: m.id,
        text: m.content,
        reasoning: m.reasoning ?? '',
        status: m.status,
        tools: (m.toolCalls ?? []).map((c) => {
          const r = results.get(c.id)
          const status: ToolStatus = !r
            ? 'pending'
            : r.failureKind === 'denied'
              ? 'denied'
              : r.failureKind === 'cancelled'
                ? 'cancelled'
                : r.isError
                  ? 'failed'
                  : 'done'
          return {
            id: c.id,
            name: c.name,
            rawArguments: c.arguments,
            status,
            result: r?.content ?? null,
          }
        }),
      })
    }
  }
  return out
}
