import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, ofType, textOf, type Harness } from '../support/agent-harness'
import { reasoningReply, textReply, toolCallsReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

describe('a turn', () => {
  it('streams an answer, saves both messages and emits one turn_end', async () => {
    h.server.enqueue(
      textReply('Hello there, friend.', {
        chunkSize: 4,
        usage: { prompt_tokens: 11, completion_tokens: 5 },
      }),
    )
    const { outcome, events, turnId } = await h.turn('hi')
    expect(outcome.reason).toBe('completed')
    expect(textOf(events)).toBe('Hello there, friend.')
    expect(ofType(events, 'text_delta').length).toBeGreaterThan(1)
    expect(ofType(events, 'turn_end')).toHaveLength(1)
    expect(events[0]?.type).toBe('turn_start')
    expect(events.at(-1)?.type).toBe('turn_end')
    for (const e of events) {
      expect(e.sessionId).toBe(h.sessionId)
      expect(e.turnId).toBe(turnId)
      expect(typeof e.at).toBe('number')
    }
    const messages = h.store.listMessages(h.sessionId)
    expect(messages.map((m) => [m.role, m.content, m.status])).toEqual([
      ['user', 'hi', 'complete'],
      ['assistant', 'Hello there, friend.', 'complete'],
    ])
    expect(messages[1]?.model).toBe('test-model')
    const usage = ofType(events, 'usage')
    expect(usage).toEqual([
      expect.objectContaining({
        inputTokens: 11,
        outputTokens: 5,
        estimated: false,
        turnInputTokens: 11,
        turnOutputTokens: 5,
      }),
    ])
    expect(h.store.getSession(h.sessionId)?.usage).toEqual({ inputTokens: 11, outputTokens: 5 })
  })

  it('accumulates the history within a turn, so the model sees its tool calls and their results', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'call_1', name: 'read_note', arguments: '{"key":"a"}' }], {
        usage: { prompt_tokens: 10, completion_tokens: 3 },
      }),
      textReply('The note says: content of a.', {
        usage: { prompt_tokens: 30, completion_tokens: 8 },
      }),
    )
    const { outcome, events } = await h.turn('read note a')
    expect(outcome.reason).toBe('completed')
    const second = h.server.requests[1]?.body as {
      messages: { role: string; tool_call_id?: string; content: unknown }[]
    }
    expect(second.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool'])
    expect(second.messages[2]).toMatchObject({
      tool_call_id: 'call_1',
      content: 'note a: content of a',
    })
    // usage is summed per round, turn and session
    expect(ofType(events, 'usage').map((u) => [u.turnInputTokens, u.turnOutputTokens])).toEqual([
      [10, 3],
      [40, 11],
    ])
    expect(outcome.usage).toEqual({ inputTokens: 40, outputTokens: 11 })
    expect(h.store.getSession(h.sessionId)?.usage).toEqual({ inputTokens: 40, outputTokens: 11 })
    // the next turn sends the whole history, and a strict server accepts it
    h.server.enqueue(textReply('Sure.'))
    const next = await h.turn('thanks')
    expect(next.outcome.reason).toBe('completed')
    expect((h.server.requests[2]?.body as { messages: unknown[] }).messages).toHaveLength(5)
  })

  it('keeps reasoning apart from the content and stores it with its message', async () => {
    h.server.enqueue(
      reasoningReply('Let me think about greetings.', 'Hi!', { style: 'think-tags', chunkSize: 3 }),
    )
    const { events } = await h.turn('hi')
    expect(textOf(events)).toBe('Hi!')
    expect(
      ofType(events, 'reasoning_delta')
        .map((e) => e.text)
        .join(''),
    ).toBe('Let me think about greetings.')
    const assistant = h.store.listMessages(h.sessionId)[1]
    expect(assistant?.content).toBe('Hi!')
    expect(assistant?.reasoning).toBe('Let me think about greetings.')
  })

  it('sends the system prompt first', async () => {
    h.server.enqueue(textReply('ok'))
    await h.turn('hi', { systemPrompt: 'You are terse.' })
    const body = h.server.requests[0]?.body as { messages: { role: string; content: string }[] }
    expect(body.messages[0]).toEqual({ role: 'system', content: 'You are terse.' })
  })

  it('answers tool calls left by a crash with `interrupted` before the new message', async () => {
    h.store.appendMessage(h.sessionId, { role: 'user', content: 'do two things' })
    h.store.appendMessage(h.sessionId, {
      role: 'assistant',
      content: '',
      toolCalls: [
        { id: 'c1', name: 'read_note', arguments: '{"key":"a"}' },
        { id: 'c2', name: 'read_note', arguments: '{"key":"b"}' },
      ],
      provider: h.server.baseURL,
      model: h.model,
    })
    h.store.appendMessage(h.sessionId, {
      role: 'tool',
      content: 'note a',
      toolCallId: 'c1',
      toolName: 'read_note',
    })
    h.server.enqueue(textReply('Back again.'))
    const { outcome, events } = await h.turn('are you there?')
    expect(outcome.reason).toBe('completed')
    expect(ofType(events, 'notice')[0]?.message).toMatch(/interrupted/)
    const roles = h.store
      .listMessages(h.sessionId)
      .map((m) => [m.role, m.toolCallId, m.failureKind])
    expect(roles).toEqual([
      ['user', null, null],
      ['assistant', null, null],
      ['tool', 'c1', null],
      ['tool', 'c2', 'interrupted'],
      ['user', null, null],
      ['assistant', null, null],
    ])
  })
})
