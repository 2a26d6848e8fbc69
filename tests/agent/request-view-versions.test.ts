import { describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import { fitToContext } from '../../src-main/core/agent/context-fit'
import { openBranch } from '../../src-main/core/agent/history-tree'
import { buildRequestView } from '../../src-main/core/agent/request-view'
import type { WireMessage } from '../../src-main/core/llm/types'
import { validateStrict } from '../support/openai-server'
import { messageBuilder, type MessageInit } from '../support/stored-messages'

const A = { provider: 'http://a/v1', model: 'm', systemPrompt: null }

/** every assistant tool call is followed, before anything else, by exactly one result */
function callsAnswered(messages: readonly WireMessage[]): boolean {
  for (let i = 0; i < messages.length; i++) {
    const calls = (messages[i]?.['tool_calls'] ?? []) as { id: string }[]
    if (calls.length === 0) continue
    const results: unknown[] = []
    for (let k = i + 1; messages[k]?.role === 'tool'; k++)
      results.push(messages[k]?.['tool_call_id'])
    if (results.length !== calls.length || !calls.every((c) => results.includes(c.id))) return false
  }
  return messages.every((m, i) => {
    if (m.role !== 'tool') return true
    let k = i - 1
    while (messages[k]?.role === 'tool') k--
    const calls = (messages[k]?.['tool_calls'] ?? []) as { id: string }[]
    return calls.some((c) => c.id === m['tool_call_id'])
  })
}

const contents = (messages: readonly WireMessage[]) =>
  messages.map((m) => [m.role, m['content'] ?? null])

/** an assistant message calling `read` with id `id`, and its result */
function toolExchange(msg: (p: MessageInit) => StoredMessage, id: string, result: string) {
  return [
    msg({
      role: 'assistant',
      content: '',
      toolCalls: [{ id, name: 'read', arguments: '{}' }],
      provider: A.provider,
      model: A.model,
    }),
    msg({ role: 'tool', content: result, toolCallId: id, toolName: 'read' }),
  ]
}

describe('the request view of the open branch of a history written with supersedes', () => {
  it('regenerate: leaves out the earlier answer and counts what it left out', () => {
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'q0' }),
      msg({ role: 'assistant', content: 'a0' }),
      msg({ role: 'user', content: 'q1' }),
      msg({ role: 'assistant', content: 'first answer' }),
      msg({ role: 'user', content: 'q1', supersedes: 3 }),
    ]
    const { messages, diagnostics } = buildRequestView(openBranch(h, null), A)
    expect(contents(messages)).toEqual([
      ['user', 'q0'],
      ['assistant', 'a0'],
      ['user', 'q1'],
    ])
    expect(diagnostics).toEqual({ flattenedToolCalls: 0, omitted: 0, summarized: 0 })
    expect(h.length - openBranch(h, null).length).toBe(2)
  })

  it('regenerate twice: only the newest version is sent', () => {
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'q' }),
      msg({ role: 'assistant', content: 'v1' }),
      msg({ role: 'user', content: 'q', supersedes: 1 }),
      msg({ role: 'assistant', content: 'v2' }),
      msg({ role: 'user', content: 'q', supersedes: 3 }),
      msg({ role: 'assistant', content: 'v3' }),
      msg({ role: 'user', content: 'next' }),
    ]
    const { messages, diagnostics } = buildRequestView(openBranch(h, null), A)
    expect(contents(messages)).toEqual([
      ['user', 'q'],
      ['assistant', 'v3'],
      ['user', 'next'],
    ])
    expect(diagnostics.omitted).toBe(0)
    expect(h.length - openBranch(h, null).length).toBe(4)
  })

  it('edit: the edited text replaces the original, tool calls of the earlier version go with it', () => {
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'hello' }),
      ...toolExchange(msg, 'call_0', 'kept result'),
      msg({ role: 'assistant', content: 'hi' }),
      msg({ role: 'user', content: 'read a' }),
      // the earlier version made two rounds of tool calls, reusing the id call_0
      ...toolExchange(msg, 'call_0', 'old result 1'),
      ...toolExchange(msg, 'call_1', 'old result 2'),
      msg({ role: 'assistant', content: 'a says…' }),
      msg({ role: 'user', content: 'read b instead', supersedes: 5 }),
      ...toolExchange(msg, 'call_0', 'new result'),
      msg({ role: 'assistant', content: 'b says…' }),
    ]
    const { messages, diagnostics } = buildRequestView(openBranch(h, null), A)
    expect(diagnostics.omitted).toBe(0)
    expect(h.length - openBranch(h, null).length).toBe(6)
    expect(contents(messages)).toEqual([
      ['user', 'hello'],
      ['assistant', null],
      ['tool', 'kept result'],
      ['assistant', 'hi'],
      ['user', 'read b instead'],
      ['assistant', null],
      ['tool', 'new result'],
      ['assistant', 'b says…'],
    ])
    expect(callsAnswered(messages)).toBe(true)
    expect(validateStrict(messages)).toBeNull()
  })

  it('retry after an interrupted turn: the repaired results stay with their calls, out of the view', () => {
    const msg = messageBuilder()
    const h = [
      msg({ role: 'user', content: 'go' }),
      ...toolExchange(msg, 'c1', 'done').slice(0, 1),
      // the repair answers the dangling call at the end, before the retried message
      msg({
        role: 'tool',
        content: '[interrupted]',
        toolCallId: 'c1',
        toolName: 'read',
        failureKind: 'interrupted',
      }),
      msg({ role: 'user', content: 'go', supersedes: 1 }),
    ]
    const { messages } = buildRequestView(openBranch(h, null), A)
    expect(contents(messages)).toEqual([['user', 'go']])
    expect(validateStrict(messages)).toBeNull()
  })

  it('stays valid for a strict provider after fitting into a small context window', () => {
    const msg = messageBuilder()
    const h: StoredMessage[] = []
    for (let i = 0; i < 6; i++) {
      const ask = msg({ role: 'user', content: `question ${i}` })
      h.push(ask, ...toolExchange(msg, `c${i}`, 'r'.repeat(3000)))
      h.push(msg({ role: 'assistant', content: `answer ${i}` }))
      if (i % 2 === 0) {
        // each even question was asked again: its first exchange is an earlier version
        h.push(msg({ role: 'user', content: `question ${i}`, supersedes: ask.seq }))
        h.push(...toolExchange(msg, `c${i}`, 's'.repeat(3000)))
        h.push(msg({ role: 'assistant', content: `answer ${i} again` }))
      }
    }
    const view = buildRequestView(openBranch(h, null), A)
    expect(h.length - openBranch(h, null).length).toBe(12)
    expect(view.messages.filter((m) => m.role === 'user')).toHaveLength(6)
    expect(
      view.messages.some((m) => String(m['content']).startsWith('r') && m.role === 'tool'),
    ).toBe(true)
    const fitted = fitToContext(view.messages, [], { maxTokens: 1500, keepRecentTurns: 1 })
    expect(fitted.diagnostics.omittedMessages).toBeGreaterThan(0)
    expect(callsAnswered(fitted.messages)).toBe(true)
    expect(validateStrict(fitted.messages)).toBeNull()
    expect(fitted.messages.at(-1)).toEqual({ role: 'assistant', content: 'answer 5' })
  })
})
