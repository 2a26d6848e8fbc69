import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { textReply, type Reply, type SseItem } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

const delta = (d: Record<string, unknown>, finish: string | null = null): SseItem => ({
  choices: [{ index: 0, delta: d, finish_reason: finish }],
})
const think = (text: string) => delta({ content: null, reasoning_content: text })
const sse = (...items: SseItem[]): Reply => ({ type: 'sse', items })

const assistants = () =>
  h.store.listMessages(h.sessionId).filter((m) => m.role === 'assistant' && m.kind === 'message')

describe('how long the model reasoned', () => {
  it('from the first reasoning delta to the first word of the answer, not to the end', async () => {
    h.server.enqueue(
      sse(
        think('Let me '),
        { delayMs: 80 },
        think('think.'),
        delta({ content: 'The answer' }),
        { delayMs: 500 },
        delta({ content: ' is 4.' }, 'stop'),
      ),
    )
    await h.turn('2+2?')
    const [answer] = assistants()
    expect(answer?.reasoning).toBe('Let me think.')
    // the whole stream took more than 580 ms
    expect(answer?.reasoningMs).toBeGreaterThanOrEqual(70)
    expect(answer?.reasoningMs).toBeLessThan(400)
  })

  it('up to the first tool call when the model calls a tool after reasoning', async () => {
    const call = { index: 0, id: 'r1', type: 'function', function: { name: 'read_note' } }
    h.server.enqueue(
      sse(
        think('I need the note.'),
        { delayMs: 60 },
        delta({ tool_calls: [{ ...call, function: { ...call.function, arguments: '' } }] }),
        { delayMs: 500 },
        delta({ tool_calls: [{ index: 0, function: { arguments: '{"key":"a"}' } }] }, 'tool_calls'),
      ),
      textReply('The note says a.'),
    )
    await h.turn('read a')
    const [withCall, answer] = assistants()
    expect(withCall?.toolCalls?.[0]?.name).toBe('read_note')
    expect(withCall?.reasoningMs).toBeGreaterThanOrEqual(50)
    expect(withCall?.reasoningMs).toBeLessThan(400)
    expect(answer?.reasoningMs).toBeNull()
  })

  it('to the end of the stream when nothing followed the reasoning', async () => {
    h.server.enqueue(sse(think('hmm'), { delayMs: 60 }, think('…'), delta({}, 'stop')))
    await h.turn('well?')
    expect(assistants()[0]?.reasoningMs).toBeGreaterThanOrEqual(50)
  })

  it('is null when the model did not reason', async () => {
    h.server.enqueue(textReply('Plain.'))
    await h.turn('hi')
    expect(assistants()[0]?.reasoningMs).toBeNull()
  })

  it('is kept on a partial answer saved after a stop', async () => {
    const items: SseItem[] = [think('Slow '), { delayMs: 60 }, think('thoughts.')]
    for (let i = 0; i < 100; i++) items.push(delta({ content: `w${i} ` }), { delayMs: 20 })
    h.server.enqueue(sse(...items))
    const stop = new AbortController()
    const { outcome } = await h.turn('go', {
      signal: stop.signal,
      onEvent: (e) => e.type === 'text_delta' && setTimeout(() => stop.abort(), 40),
    })
    expect(outcome.reason).toBe('aborted')
    const [partial] = assistants()
    expect(partial?.status).toBe('stopped')
    expect(partial?.reasoningMs).toBeGreaterThanOrEqual(50)
    expect(partial?.reasoningMs).toBeLessThan(1_000)
  })
})

describe('message_saved', () => {
  it('carries the seq of the saved message (messageSeq)', async () => {
    h.server.enqueue(textReply('One.'))
    await h.turn('first')
    h.server.enqueue(textReply('Two.'))
    const { events } = await h.turn('second')
    const saved = ofType(events, 'message_saved')
    const stored = h.store.listMessages(h.sessionId)
    expect(saved.map((e) => [e.messageSeq, e.messageId])).toEqual(
      stored.slice(2).map((m) => [m.seq, m.id]),
    )
    expect(saved.map((e) => e.messageSeq)).toEqual([3, 4])
  })
})
