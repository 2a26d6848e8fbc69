/**
 * One answer has a size limit (`maxAnswerChars`): a provider that streams without end is cut
 * there, the turn ends with `answer_too_long` and says why, what came up to the limit is
 * shown and kept, and the session goes on.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_LIMITS } from '../../src-main/core/agent/limits'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { textReply, type SseItem } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

/** 1 000 characters a chunk, `n` chunks, then the stream stays open (no finish, no [DONE]). */
function endless(n: number, field: 'content' | 'reasoning_content' = 'content') {
  const items: SseItem[] = []
  for (let i = 0; i < n; i++) {
    items.push({
      choices: [{ index: 0, delta: { [field]: String(i % 10).repeat(1000) }, finish_reason: null }],
    })
  }
  return { type: 'sse' as const, items, end: 'hang' as const }
}

describe('the size limit of one answer', () => {
  it('is about 2 MB by default', () => {
    expect(DEFAULT_LIMITS.maxAnswerChars).toBe(2_000_000)
  })

  it('cuts an endless stream at the limit, ends the turn with a clear reason and keeps what came', async () => {
    h.server.enqueue(endless(400))
    const { outcome, events } = await h.turn('write forever', {
      limits: { maxAnswerChars: 50_000 },
    })
    expect(outcome.reason).toBe('error')
    expect(outcome.error?.code).toBe('answer_too_long')
    expect(outcome.error?.message).toMatch(/limit of one answer.*maxAnswerChars/s)
    const shown = ofType(events, 'text_delta')
      .map((d) => d.text)
      .join('')
    expect(shown.length).toBe(50_000)
    const end = ofType(events, 'turn_end')
    expect(end).toHaveLength(1)
    expect(end[0]?.error?.code).toBe('answer_too_long')
    const saved = h.store.listMessages(h.sessionId).filter((m) => m.role === 'assistant')
    expect(saved).toHaveLength(1)
    expect(saved[0]?.content.length).toBe(50_000)
    expect(saved[0]?.content).toBe(shown)
    expect(saved[0]?.status).toBe('interrupted')

    // the session goes on
    h.server.enqueue(textReply('short'))
    const next = await h.turn('shorter please', { limits: { maxAnswerChars: 50_000 } })
    expect(next.outcome.reason).toBe('completed')
  })

  it('counts reasoning too', async () => {
    h.server.enqueue(endless(100, 'reasoning_content'))
    const { outcome, events } = await h.turn('think forever', {
      limits: { maxAnswerChars: 10_000 },
    })
    expect(outcome.error?.code).toBe('answer_too_long')
    expect(
      ofType(events, 'reasoning_delta')
        .map((d) => d.text)
        .join('').length,
    ).toBe(10_000)
  })

  it('leaves an answer within the limit alone', async () => {
    h.server.enqueue(textReply('x'.repeat(9_000), { chunkSize: 1000 }))
    const { outcome } = await h.turn('fits', { limits: { maxAnswerChars: 10_000 } })
    expect(outcome.reason).toBe('completed')
    expect(h.store.listMessages(h.sessionId).at(-1)?.content).toBe('x'.repeat(9_000))
  })
})
