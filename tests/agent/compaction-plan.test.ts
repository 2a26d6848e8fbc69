import { describe, expect, it } from 'vitest'
import type { NewMessage, StoredMessage } from '../../src-preload/contract/dto'
import { compactHistory } from '../../src-main/core/agent/compaction'
import { planCompaction } from '../../src-main/core/agent/compaction-plan'
import type { TierModel } from '../../src-main/core/agent/model-tiers'
import { messageBuilder } from '../support/stored-messages'

/** `n` exchanges, each: a question, a tool call, its result, an answer (about 250 tokens) */
function history(n: number): StoredMessage[] {
  const m = messageBuilder()
  const out: StoredMessage[] = [m({ role: 'system', content: 'sys' })]
  for (let i = 0; i < n; i++) {
    out.push(m({ role: 'user', content: `q${i}` }))
    out.push(
      m({
        role: 'assistant',
        content: '',
        toolCalls: [{ id: `c${i}`, name: 'read', arguments: '{}' }],
      }),
    )
    out.push(m({ role: 'tool', toolCallId: `c${i}`, toolName: 'read', content: 'r'.repeat(600) }))
    out.push(m({ role: 'assistant', content: `a${i} ${'x'.repeat(400)}` }))
  }
  return out
}

describe('what a compaction summarizes', () => {
  it('the middle only: not the system prompt, the first question, or the last 5 exchanges', () => {
    const h = history(12)
    const plan = planCompaction(h, { currentTokens: 3000, targetTokens: 0, summaryTokens: 100 })!
    expect(plan.from).toBe(3) // the first question's tool call
    const tailStart = h.find((m) => m.content === 'q7')!.seq
    expect(plan.to).toBe(tailStart - 1)
    expect(plan.covered.some((m) => m.role === 'system' || m.content === 'q0')).toBe(false)
  })

  it('stops once the request would be down to the target (hysteresis), never between a call and its result', () => {
    const h = history(12)
    const plan = planCompaction(h, { currentTokens: 3000, targetTokens: 2500, summaryTokens: 100 })!
    expect(plan.to).toBeLessThan(h.find((m) => m.content === 'q7')!.seq - 1)
    const next = h.find((m) => m.seq === plan.to + 1)!
    expect(next.role).not.toBe('tool')
  })

  it('leaves pinned messages out of what is summarized, and does nothing without a middle', () => {
    const h = history(12)
    h[7] = { ...h[7]!, pinned: true } // q1's tool result: its call and it stay whole
    const plan = planCompaction(h, { currentTokens: 3000, targetTokens: 0, summaryTokens: 100 })!
    const covered = new Set(plan.covered.map((m) => m.seq))
    expect(covered.has(h[6]!.seq) || covered.has(h[7]!.seq)).toBe(false)
    expect(covered.has(h[5]!.seq)).toBe(true)
    expect(
      planCompaction(history(5), { currentTokens: 9e9, targetTokens: 0, summaryTokens: 0 }),
    ).toBeNull()
  })
})

describe('the summary call', () => {
  const base = (client: TierModel['client'], saved: NewMessage[]) => ({
    history: history(12),
    measure: (h: readonly StoredMessage[]) => (h.some((m) => m.kind === 'summary') ? 1000 : 3000),
    windowTokens: 4000,
    triggerRatio: 0.7,
    model: { client, baseURL: 'http://x', provider: 'p', model: 'm' },
    signal: new AbortController().signal,
    now: () => 0,
    save: (m: NewMessage): StoredMessage => {
      saved.push(m)
      return { ...history(1)[0]!, ...m, id: 'sum', seq: 100 } as StoredMessage
    },
  })

  it('reads a stream to its end where the client has no non-streamed call', async () => {
    const saved: NewMessage[] = []
    const frozen = JSON.stringify(history(12))
    const input = base(
      {
        buildBody: (r) => ({ ...r }),
        streamChat: async (req) => {
          expect(req.params).toEqual({ temperature: 0.2 })
          return {
            content: 'streamed summary',
            usage: { inputTokens: 1, outputTokens: 2, estimated: false },
          } as never
        },
      },
      saved,
    )
    const done = await compactHistory(input)
    expect(done).toMatchObject({ fallback: false, tokensBefore: 3000, tokensAfter: 1000 })
    expect(saved[0]).toMatchObject({ kind: 'summary', role: 'user', content: 'streamed summary' })
    expect(JSON.stringify(input.history)).toBe(frozen)
  })

  it('falls back to the first 200 characters of each covered message when the call fails', async () => {
    const saved: NewMessage[] = []
    const done = await compactHistory(
      base(
        {
          buildBody: (r) => ({ ...r }),
          streamChat: async () => {
            throw new Error('server down')
          },
        },
        saved,
      ),
    )
    expect(done).toMatchObject({ fallback: true, error: 'server down' })
    expect(saved[0]!.content).toContain(`Result of read: ${'r'.repeat(200)}…`)
    expect(saved[0]!.content).not.toContain('r'.repeat(201))
  })

  it('does nothing under the threshold', async () => {
    const input = {
      ...base({ buildBody: (r) => ({ ...r }), streamChat: async () => ({}) as never }, []),
    }
    expect(await compactHistory({ ...input, measure: () => 2000 })).toBeNull()
  })
})
