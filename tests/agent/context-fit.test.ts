import { afterEach, describe, expect, it } from 'vitest'
import { fitToContext } from '../../src-main/core/agent/context-fit'
import { estimateRequestTokens as estimateTokens } from '../../src-main/core/llm/estimate'
import type { WireMessage } from '../../src-main/core/llm/types'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply } from '../support/openai-server'

function turn(i: number, resultChars: number): WireMessage[] {
  return [
    { role: 'user', content: `question ${i}` },
    {
      role: 'assistant',
      content: null,
      tool_calls: [{ id: `c${i}`, type: 'function', function: { name: 'read', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: `c${i}`, content: 'r'.repeat(resultChars) },
    { role: 'assistant', content: `answer ${i}` },
  ]
}

describe('fitting the request into the context window', () => {
  const history: WireMessage[] = [
    { role: 'system', content: 'sys' },
    ...[0, 1, 2, 3, 4, 5].flatMap((i) => turn(i, 4000)),
  ]

  it('leaves a request that fits alone', () => {
    const { messages, diagnostics } = fitToContext(history, [], { maxTokens: 100_000 })
    expect(messages).toEqual(history)
    expect(diagnostics).toMatchObject({ shortenedToolResults: 0, omittedMessages: 0 })
  })

  it('shortens older tool results first, keeping the recent turns whole', () => {
    const { messages, diagnostics } = fitToContext(history, [], {
      maxTokens: 5000,
      keepRecentTurns: 2,
      oldToolResultChars: 100,
    })
    expect(diagnostics.shortenedToolResults).toBe(4)
    expect(diagnostics.omittedMessages).toBe(0)
    const tools = messages
      .filter((m) => m.role === 'tool')
      .map((m) => (m['content'] as string).length)
    expect(tools.slice(0, 4).every((n) => n < 200)).toBe(true)
    expect(tools.slice(4)).toEqual([4000, 4000])
    expect(estimateTokens(messages)).toBeLessThanOrEqual(5000)
  })

  it('then leaves out whole old turns, never splitting a tool call from its result', () => {
    const { messages, diagnostics } = fitToContext(history, [], {
      maxTokens: 2200,
      keepRecentTurns: 2,
      oldToolResultChars: 100,
    })
    expect(diagnostics.omittedMessages).toBeGreaterThan(0)
    expect(diagnostics.omittedMessages % 4).toBe(0)
    expect(messages[0]).toEqual({ role: 'system', content: 'sys' })
    expect(messages[1]?.role).toBe('user')
    expect(messages[1]?.['content']).toMatch(
      /^\[\d+ earlier messages of this conversation were left out/,
    )
    const callIds = messages.flatMap((m) =>
      ((m['tool_calls'] as { id: string }[] | undefined) ?? []).map((c) => c.id),
    )
    const resultIds = messages.filter((m) => m.role === 'tool').map((m) => m['tool_call_id'])
    expect(resultIds).toEqual(callIds)
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: 'answer 5' })
  })

  it('always keeps the latest turn, even over budget', () => {
    const { messages } = fitToContext(history, [], {
      maxTokens: 10,
      keepRecentTurns: 1,
      oldToolResultChars: 10,
    })
    expect(messages.filter((m) => m.role === 'user')).toHaveLength(1)
    expect(messages.at(-1)).toEqual({ role: 'assistant', content: 'answer 5' })
  })
})

describe('context fitting in a turn', () => {
  let h: Harness
  afterEach(async () => {
    await h.close()
  })

  it('sends a fitted view that a strict server accepts, says so once, and keeps the stored history whole', async () => {
    h = await createHarness()
    for (let i = 0; i < 4; i++) {
      h.server.enqueue(
        toolCallsReply([{ name: 'huge', arguments: '{"size":20000}' }]),
        textReply(`answer ${i}`),
      )
      await h.turn(`question ${i}`, { limits: { contextTokens: 0 } })
    }
    h.server.enqueue(
      toolCallsReply([{ name: 'read_note', arguments: '{"key":"a"}' }]),
      textReply('done'),
    )
    const { outcome, events } = await h.turn('last question', { limits: { contextTokens: 6000 } })
    expect(outcome.reason).toBe('completed')
    const notices = ofType(events, 'notice')
    expect(notices).toHaveLength(1)
    expect(notices[0]?.message).toMatch(/To fit the context window \(6000 tokens\)/)
    const sent = h.server.requests.at(-1)?.body as { messages: WireMessage[] }
    expect(estimateTokens(sent.messages)).toBeLessThanOrEqual(6000)
    expect(JSON.stringify(sent.messages)).toContain('last question')
    // the stored history is untouched
    const stored = h.store
      .listMessages(h.sessionId)
      .filter((m) => m.role === 'tool' && m.toolName === 'huge')
    expect(stored.map((m) => m.content.length)).toEqual([20000, 20000, 20000, 20000])
  })
})
