import { describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import {
  applyEvent,
  applyEvents,
  endMessage,
  newTurn,
  type AnswerItem,
  type TurnView,
} from '../../src-renderer/src/state/turn-reducer'

let seq = 0
function ev(e: Record<string, unknown>, turnId = 't'): SequencedAgentEvent {
  return { sessionId: 's', turnId, at: 1000 + seq * 10, seq: seq++, ...e } as SequencedAgentEvent
}
const run = (events: SequencedAgentEvent[], from: TurnView = newTurn('t', 's')): TurnView =>
  applyEvents(from, events).view
const answers = (v: TurnView): AnswerItem[] =>
  v.items.filter((i): i is AnswerItem => i.kind === 'answer')

const toolCall = (id: string, name = 'fs__read') =>
  ev({
    type: 'tool_call',
    id,
    name,
    server: 'fs',
    tool: 'read',
    arguments: {},
    rawArguments: '{}',
    readOnly: true,
  })
const result = (id: string, content: string, ok = true, failureKind?: string) =>
  ev({
    type: 'tool_result',
    id,
    ok,
    content,
    durationMs: 7,
    synthetic: !ok,
    ...(failureKind ? { failureKind } : {}),
  })
const decision = (id: string, d: string, by = 'user') =>
  ev({ type: 'permission_decision', requestId: `r-${id}`, toolCallId: id, decision: d, by })
const saved = (role: string, status = 'complete', id = `m${seq}`) =>
  ev({ type: 'message_saved', messageId: id, seq: seq, role, status })

describe('the turn on screen', () => {
  it('streams reasoning then text into one answer, with how long it thought', () => {
    seq = 0
    const v = run([
      ev({ type: 'turn_start', model: 'm', provider: 'p' }),
      ev({ type: 'reasoning_delta', text: 'hmm ' }), // at 1010
      ev({ type: 'reasoning_delta', text: 'ok' }),
      ev({ type: 'text_delta', text: 'Hel' }), // at 1030
      ev({ type: 'text_delta', text: 'lo' }),
      saved('assistant', 'complete', 'a1'),
    ])
    expect(answers(v)).toMatchObject([
      { text: 'Hello', reasoning: 'hmm ok', status: 'complete', reasoningMs: 20, messageId: 'a1' },
    ])
    expect(v.model).toBe('m')
  })

  it('drops the text of an attempt that a retry discards, so nothing shows twice', () => {
    seq = 0
    const v = run([
      ev({ type: 'text_delta', text: 'Once upon' }),
      ev({
        type: 'retry',
        attempt: 2,
        maxAttempts: 4,
        delayMs: 500,
        reason: 'connection reset',
        discardPartial: true,
      }),
      ev({ type: 'text_delta', text: 'Once upon a time.' }),
    ])
    expect(answers(v).map((a) => a.text)).toEqual(['Once upon a time.'])
    expect(v.items.find((i) => i.kind === 'notice')).toMatchObject({
      retry: { attempt: 2, maxAttempts: 4, until: 1010 + 500 },
    })
    // the retry notice goes once the answer is saved
    const done = run([saved('assistant')], v)
    expect(done.items.some((i) => i.kind === 'notice')).toBe(false)
  })

  it('follows a tool call through approval to its result, inside its answer', () => {
    seq = 0
    let v = run([
      ev({ type: 'text_delta', text: 'Let me look.' }),
      saved('assistant'),
      toolCall('c'),
    ])
    expect(answers(v)[0]!.tools[0]).toMatchObject({ status: 'pending', server: 'fs', tool: 'read' })
    v = applyEvent(
      v,
      ev({
        type: 'permission_request',
        requestId: 'r-c',
        toolCallId: 'c',
        name: 'fs__read',
        server: 'fs',
        tool: 'read',
        description: '',
        arguments: {},
        annotations: {},
        trusted: false,
      }),
    )
    expect(answers(v)[0]!.tools[0]).toMatchObject({ status: 'waiting' })
    v = applyEvent(v, decision('c', 'allow_once'))
    expect(answers(v)[0]!.tools[0]).toMatchObject({ status: 'running', decidedBy: 'user' })
    v = applyEvent(v, result('c', 'data'))
    expect(answers(v)[0]!.tools[0]).toMatchObject({ status: 'done', result: 'data', durationMs: 7 })
    expect(answers(v)).toHaveLength(1)
  })

  it('an answer with calls and no text still holds its calls', () => {
    seq = 0
    const v = run([
      saved('user'),
      saved('assistant'),
      toolCall('c'),
      decision('c', 'allow_always', 'rule'),
      result('c', 'x'),
    ])
    expect(answers(v)).toHaveLength(1)
    expect(answers(v)[0]!.tools[0]).toMatchObject({ status: 'done', decidedBy: 'rule' })
    expect(v.userSaved).toBe(true)
  })

  it('a reused call id in the next round gets its own result (an allowed call never shows Denied)', () => {
    seq = 0
    const v = run([
      saved('assistant'),
      toolCall('call_0'),
      decision('call_0', 'deny'),
      result('call_0', 'denied by the user', false, 'denied'),
      ev({ type: 'text_delta', text: 'Trying again.' }),
      saved('assistant'),
      toolCall('call_0'),
      decision('call_0', 'allow_once'),
      result('call_0', 'second result'),
    ])
    const tools = answers(v).flatMap((a) => a.tools)
    expect(tools.map((t) => [t.status, t.result])).toEqual([
      ['denied', 'denied by the user'],
      ['done', 'second result'],
    ])
  })

  it('two calls with the same id in one answer each get their own result, in order', () => {
    seq = 0
    const v = run([
      saved('assistant'),
      toolCall('dup'),
      toolCall('dup'),
      result('dup', 'one'),
      result('dup', 'two'),
    ])
    expect(answers(v)[0]!.tools.map((t) => t.result)).toEqual(['one', 'two'])
  })

  it('ignores events it already has, and reports a gap instead of applying past it', () => {
    seq = 0
    const events = [ev({ type: 'text_delta', text: 'a' }), ev({ type: 'text_delta', text: 'b' })]
    const v = run(events, run(events))
    expect(answers(v)[0]!.text).toBe('ab')
    expect(v.nextSeq).toBe(2)
    seq = 5
    const gap = applyEvents(v, [ev({ type: 'text_delta', text: 'late' })])
    expect(gap.gap).toBe(true)
    expect(answers(gap.view)[0]!.text).toBe('ab')
  })

  it('a batch copies only what it touches: untouched answers keep their identity', () => {
    seq = 0
    const first = run([ev({ type: 'text_delta', text: 'one' }), saved('assistant')])
    const before = first.items[0]
    const next = run(
      [ev({ type: 'text_delta', text: 'two' }), ev({ type: 'text_delta', text: '!' })],
      first,
    )
    expect(next.items[0]).toBe(before)
    expect(answers(next)[1]!.text).toBe('two!')
    // the earlier view is not changed by the later batch
    expect(first.items).toHaveLength(1)
  })

  it('counts usage for the turn and remembers an estimate', () => {
    seq = 0
    const v = run([
      ev({
        type: 'usage',
        inputTokens: 10,
        outputTokens: 5,
        estimated: false,
        turnInputTokens: 10,
        turnOutputTokens: 5,
      }),
      ev({
        type: 'usage',
        inputTokens: 20,
        outputTokens: 7,
        estimated: true,
        turnInputTokens: 30,
        turnOutputTokens: 12,
      }),
    ])
    expect(v.usage).toEqual({ inputTokens: 30, outputTokens: 12, estimated: true })
  })

  it("keeps the turn's cost as the usage events say it (none while no call had a price)", () => {
    seq = 0
    const base = { inputTokens: 10, outputTokens: 5, estimated: false }
    const v = run([
      ev({
        type: 'usage',
        ...base,
        turnInputTokens: 10,
        turnOutputTokens: 5,
        cost: 0.001,
        turnCost: 0.001,
      }),
      ev({
        type: 'usage',
        ...base,
        turnInputTokens: 20,
        turnOutputTokens: 10,
        cost: 0.002,
        turnCost: 0.003,
      }),
    ])
    expect(v.usage).toEqual({ inputTokens: 20, outputTokens: 10, estimated: false, cost: 0.003 })
  })

  it('says a loop warning in words meant for the user', () => {
    seq = 0
    const v = run([ev({ type: 'loop_warning', name: 'fs__read', count: 3 })])
    expect(v.items[0]).toMatchObject({
      kind: 'notice',
      message: 'The model repeated the same call to fs__read; it was asked to try something else.',
    })
  })

  it('ends: a stopped answer is marked stopped, and an error says what to do', () => {
    seq = 0
    const stopped = run([
      ev({ type: 'text_delta', text: 'partial' }),
      ev({ type: 'turn_end', reason: 'aborted' }),
    ])
    expect(stopped.running).toBe(false)
    expect(answers(stopped)[0]).toMatchObject({ status: 'stopped' })
    expect(endMessage(stopped)).toBe('Stopped.')
    seq = 0
    const failed = run([
      ev({
        type: 'turn_end',
        reason: 'error',
        error: { code: 'auth', message: 'The API key was rejected by http://x. Check it.' },
      }),
    ])
    expect(endMessage(failed)).toBe('The API key was rejected by http://x. Check it.')
    expect(endMessage({ endReason: 'loop', error: null })).toBe(
      'Stopped: the model kept repeating the same tool call.',
    )
    expect(endMessage({ endReason: 'completed', error: null })).toBeNull()
  })
})
