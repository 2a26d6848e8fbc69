/**
 * Recorded provider streams through a whole turn (the real loop, store and SDK): an answer cut
 * at the output limit is kept as `truncated` with a notice and can be continued; OpenRouter's
 * reasoning_details go back with the tool call they came with; a call to a tool Cairn does not
 * have still shows its parsed arguments.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { TRUNCATED_NOTICE } from '../../src-main/core/agent/turn-runner'
import { loadRecording, replay } from '../llm/recordings'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { textReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

type Msg = { role: string; content: unknown; reasoning_details?: unknown; tool_calls?: unknown }
const sent = (i: number): Msg[] => (h.server.requests[i]?.body as { messages: Msg[] }).messages

describe('an answer cut at the output limit', () => {
  it('is stored as truncated, with a notice, and the turn completes', async () => {
    h.server.enqueue(replay(loadRecording('llamacpp-cut-at-length.sse')))
    const { outcome, events } = await h.turn('Why local models?')
    expect(outcome.reason).toBe('completed')
    const answer = h.store.listMessages(h.sessionId).find((m) => m.role === 'assistant')
    expect(answer?.content).toBe('Here are three reasons:\n\n1. Speed')
    expect(answer?.status).toBe('truncated')
    expect(ofType(events, 'message_saved').at(-1)?.status).toBe('truncated')
    expect(ofType(events, 'notice')).toEqual([
      expect.objectContaining({ level: 'warning', message: TRUNCATED_NOTICE }),
    ])
    expect(TRUNCATED_NOTICE).toBe("The answer was cut at the model's output limit.")
  })

  it('a recorded DeepSeek answer cut while reasoning keeps its reasoning, marked truncated', async () => {
    h.server.enqueue(replay(loadRecording('deepseek-reasoning-cut-at-length.chunks.txt')))
    await h.turn('Think hard')
    const answer = h.store.listMessages(h.sessionId).find((m) => m.role === 'assistant')
    expect(answer?.reasoning).toBe('We need')
    expect(answer?.status).toBe('truncated')
  })

  it('continuing sends the cut answer back and asks the model to go on', async () => {
    h.server.enqueue(replay(loadRecording('llamacpp-cut-at-length.sse')), textReply(' and cost.'))
    await h.turn('Why local models?')
    const { outcome, events } = await h.turn('Continue from where you stopped.')
    expect(outcome.reason).toBe('completed')
    expect(sent(1).slice(-2)).toEqual([
      { role: 'assistant', content: 'Here are three reasons:\n\n1. Speed' },
      { role: 'user', content: 'Continue from where you stopped.' },
    ])
    expect(ofType(events, 'notice')).toEqual([])
    expect(h.store.listMessages(h.sessionId).at(-1)?.status).toBe('complete')
  })

  it('a complete answer gets no notice and stays complete', async () => {
    h.server.enqueue(textReply('Whole.'))
    const { events } = await h.turn('Hi')
    expect(ofType(events, 'notice')).toEqual([])
    expect(h.store.listMessages(h.sessionId).at(-1)?.status).toBe('complete')
  })
})

describe('OpenRouter reasoning_details', () => {
  it('go back with the tool call they came with', async () => {
    const details = [
      { type: 'reasoning.text', text: 'Look it up.', signature: 'sig-1', index: 0 },
      { type: 'reasoning.encrypted', data: 'enc-blob', index: 1 },
    ]
    h.server.enqueue(
      {
        type: 'sse',
        items: [
          {
            choices: [
              { index: 0, delta: { reasoning_details: [details[0]] }, finish_reason: null },
            ],
          },
          {
            choices: [
              { index: 0, delta: { reasoning_details: [details[1]] }, finish_reason: null },
            ],
          },
          {
            choices: [
              {
                index: 0,
                delta: {
                  tool_calls: [
                    {
                      index: 0,
                      id: 'c1',
                      type: 'function',
                      function: { name: 'read_note', arguments: '{"key":"a"}' },
                    },
                  ],
                },
                finish_reason: 'tool_calls',
              },
            ],
          },
        ],
      },
      textReply('Done.'),
    )
    const { events } = await h.turn('Read note a')
    expect(
      ofType(events, 'reasoning_delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Look it up.')
    const assistant = sent(1).find((m) => m.role === 'assistant')
    expect(assistant?.reasoning_details).toEqual(details)
  })
})

describe('a call to a tool Cairn does not have', () => {
  it('shows its arguments parsed, and the model is told the tool does not exist', async () => {
    h.server.enqueue(
      replay(loadRecording('moonshot-tool-call.chunks.txt')),
      textReply('I cannot check the weather.'),
    )
    const { events } = await h.turn('Weather in Paris?')
    expect(ofType(events, 'tool_call')[0]).toMatchObject({
      name: 'get_weather',
      arguments: { city: 'Paris' },
      rawArguments: '{"city":"Paris"}',
    })
    expect(ofType(events, 'tool_result')[0]).toMatchObject({
      ok: false,
      failureKind: 'unknown_tool',
    })
  })
})
