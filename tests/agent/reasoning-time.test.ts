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

/**
 * When each kind of event reached the caller. The bounds below are relative to these
 * moments, not to the server's delays: on a busy machine two chunks sent 80 ms apart can
 * arrive together, and a fixed number of milliseconds would fail at random.
 */
function stamps() {
  const at: { type: string; t: number }[] = []
  const first = (type: string): number => at.find((x) => x.type === type)!.t
  const last = (type: string): number => at.findLast((x) => x.type === type)!.t
  return {
    onEvent: (e: { type: string }) => void at.push({ type: e.type, t: performance.now() }),
    first,
    last,
  }
}
/** the engine stamps a moment just before it emits that moment's event */
const SLACK = 5

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
    const t = stamps()
    await h.turn('2+2?', { onEvent: t.onEvent })
    const [answer] = assistants()
    expect(answer?.reasoning).toBe('Let me think.')
    const ms = answer!.reasoningMs!
    // it covers the reasoning, ends by the answer's first word, and long before the end
    expect(ms).toBeGreaterThanOrEqual(
      t.last('reasoning_delta') - t.first('reasoning_delta') - SLACK,
    )
    expect(ms).toBeLessThanOrEqual(t.first('text_delta') - t.first('reasoning_delta') + SLACK)
    expect(ms).toBeLessThan(t.last('text_delta') - t.first('reasoning_delta'))
  })

  it('up to the first tool call when the model calls a tool after reasoning', async () => {
    const call = { index: 0, id: 'r1', type: 'function', function: { name: 'read_note' } }
    h.server.enqueue(
      sse(
        think('I need'),
        { delayMs: 60 },
        think(' the note.'),
        delta({ tool_calls: [{ ...call, function: { ...call.function, arguments: '' } }] }),
        { delayMs: 500 },
        delta({ tool_calls: [{ index: 0, function: { arguments: '{"key":"a"}' } }] }, 'tool_calls'),
      ),
      textReply('The note says a.'),
    )
    const t = stamps()
    await h.turn('read a', { onEvent: t.onEvent })
    const [withCall, answer] = assistants()
    expect(withCall?.toolCalls?.[0]?.name).toBe('read_note')
    const ms = withCall!.reasoningMs!
    expect(ms).toBeGreaterThanOrEqual(
      t.last('reasoning_delta') - t.first('reasoning_delta') - SLACK,
    )
    // the call is complete (its event) only after its arguments' second half, sent 500 ms
    // after the first: a reasoning time that ran to the end would take most of that wait
    expect(ms).toBeLessThan((t.first('tool_call') - t.first('reasoning_delta')) / 2)
    expect(answer?.reasoningMs).toBeNull()
  })

  it('to the end of the stream when nothing followed the reasoning', async () => {
    h.server.enqueue(sse(think('hmm'), { delayMs: 60 }, think('…'), delta({}, 'stop')))
    const t = stamps()
    await h.turn('well?', { onEvent: t.onEvent })
    const ms = assistants()[0]!.reasoningMs!
    expect(ms).toBeGreaterThanOrEqual(
      t.last('reasoning_delta') - t.first('reasoning_delta') - SLACK,
    )
    expect(ms).toBeLessThanOrEqual(t.last('turn_end') - t.first('reasoning_delta') + SLACK)
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
    const t = stamps()
    const { outcome } = await h.turn('go', {
      signal: stop.signal,
      onEvent: (e) => {
        t.onEvent(e)
        if (e.type === 'text_delta') setTimeout(() => stop.abort(), 40)
      },
    })
    expect(outcome.reason).toBe('aborted')
    const [partial] = assistants()
    expect(partial?.status).toBe('stopped')
    const ms = partial!.reasoningMs!
    expect(ms).toBeGreaterThanOrEqual(
      t.last('reasoning_delta') - t.first('reasoning_delta') - SLACK,
    )
    expect(ms).toBeLessThanOrEqual(t.first('text_delta') - t.first('reasoning_delta') + SLACK)
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
