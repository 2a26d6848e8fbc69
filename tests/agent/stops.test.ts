import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { AbortReason } from '../../src-main/core/llm/types'
import { createHarness, ofType, textOf, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply, slowText } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

/** A history is valid when every tool call is answered right after its message, once. */
function expectValidHistory(): void {
  const messages = h.store.listMessages(h.sessionId)
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!
    if (m.role !== 'assistant' || !m.toolCalls) continue
    const answers = messages.slice(i + 1, i + 1 + m.toolCalls.length)
    expect(answers.map((a) => a.toolCallId)).toEqual(m.toolCalls.map((c) => c.id))
  }
}

describe('stop conditions', () => {
  it('warns a model that repeats a call, then stops the turn with `loop`', async () => {
    const same = () => toolCallsReply([{ name: 'read_note', arguments: '{"key":"a"}' }])
    for (let i = 0; i < 6; i++) h.server.enqueue(same())
    const { outcome, events } = await h.turn('go')
    expect(outcome.reason).toBe('loop')
    expect(ofType(events, 'loop_warning').map((w) => w.count)).toEqual([3, 4])
    // warned twice (in the tool results), the fifth identical call was not run
    expect(h.tools.calls).toHaveLength(4)
    const results = ofType(events, 'tool_result')
    expect(results[2]?.content).toMatch(/repeating yourself/)
    expect(results.at(-1)).toMatchObject({ synthetic: true, failureKind: 'stopped' })
    expectValidHistory()
  })

  it('spots a cycle A,B,A,B,… and lets the same tool with new arguments run', async () => {
    const a = { name: 'read_note', arguments: '{"key":"a"}' }
    const b = { name: 'read_note', arguments: '{"key":"b"}' }
    for (let i = 0; i < 3; i++) h.server.enqueue(toolCallsReply([a]), toolCallsReply([b]))
    h.server.enqueue(textReply('done'))
    const cyc = await h.turn('go', { limits: { loopMaxWarnings: 5 } })
    // A,B,A,B,A,B: the pair has repeated three times at the sixth call
    expect(ofType(cyc.events, 'loop_warning').map((w) => w.count)).toEqual([3])
    expect(cyc.outcome.reason).toBe('completed')
    for (let i = 0; i < 8; i++)
      h.server.enqueue(toolCallsReply([{ name: 'read_note', arguments: `{"key":"k${i}"}` }]))
    h.server.enqueue(textReply('done'))
    const fresh = await h.turn('go on')
    expect(ofType(fresh.events, 'loop_warning')).toHaveLength(0)
    expect(fresh.outcome.reason).toBe('completed')
  })

  it('stops after the maximum number of LLM calls', async () => {
    for (let i = 0; i < 5; i++)
      h.server.enqueue(toolCallsReply([{ name: 'read_note', arguments: `{"key":"${i}"}` }]))
    const { outcome } = await h.turn('go', { limits: { maxIterations: 3 } })
    expect(outcome.reason).toBe('max_iterations')
    expect(outcome.llmCalls).toBe(3)
    expect(h.server.requests).toHaveLength(3)
    expectValidHistory()
  })

  it('stops after the maximum number of tool executions and answers the rest', async () => {
    h.server.enqueue(
      toolCallsReply(
        [1, 2, 3].map((i) => ({
          id: `w${i}`,
          name: 'write_note',
          arguments: `{"key":"${i}","text":"t"}`,
        })),
      ),
    )
    const { outcome, events } = await h.turn('go', { limits: { maxToolExecutions: 2 } })
    expect(outcome.reason).toBe('max_tool_executions')
    expect(h.tools.calls).toHaveLength(2)
    expect(ofType(events, 'tool_result').map((r) => r.failureKind ?? 'ran')).toEqual([
      'ran',
      'ran',
      'stopped',
    ])
    expectValidHistory()
  })

  it('stop-on-tool-failure ends the turn at the first failing tool', async () => {
    h.server.enqueue(
      toolCallsReply([
        { id: 'f', name: 'fail', arguments: '{}' },
        { id: 'r', name: 'write_note', arguments: '{"key":"a","text":"b"}' },
      ]),
    )
    const { outcome, events } = await h.turn('go', { limits: { stopOnToolFailure: true } })
    expect(outcome.reason).toBe('tool_failure')
    expect(ofType(events, 'tool_result').map((r) => [r.id, r.ok, r.failureKind])).toEqual([
      ['f', false, undefined],
      ['r', false, 'stopped'],
    ])
  })

  it('ends at the deadline, answering a running tool with `timeout`', async () => {
    h.server.enqueue(toolCallsReply([{ id: 'w', name: 'wait_forever', arguments: '{}' }]))
    const { outcome, events } = await h.turn('go', { limits: { deadlineMs: 300 } })
    expect(outcome.reason).toBe('deadline')
    expect(ofType(events, 'tool_result')[0]).toMatchObject({
      id: 'w',
      synthetic: true,
      failureKind: 'timeout',
    })
    expectValidHistory()
  })

  it('Stop in the middle of a stream keeps the partial text, marked stopped, and the next turn is valid', async () => {
    h.server.enqueue(slowText(200, 20))
    const stop = new AbortController()
    const { outcome, events } = await h.turn('tell a long story', {
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'text_delta' && e.text.startsWith('w3 ')) stop.abort(new AbortReason('stop'))
      },
    })
    expect(outcome.reason).toBe('aborted')
    const shown = textOf(events)
    expect(shown.startsWith('w0 w1 w2 w3')).toBe(true)
    expect(shown).not.toContain('w199')
    const last = h.store.listMessages(h.sessionId).at(-1)
    expect(last).toMatchObject({ role: 'assistant', status: 'stopped', content: shown })
    expect(ofType(events, 'retry')).toHaveLength(0)
    h.server.enqueue(textReply('Fine.'))
    const next = await h.turn('shorter please')
    expect(next.outcome.reason).toBe('completed')
  })

  it('Stop in the middle of a tool cancels it, answers it, and the next turn is valid', async () => {
    h.server.enqueue(
      toolCallsReply([
        { id: 'w', name: 'wait_forever', arguments: '{}' },
        { id: 'x', name: 'write_note', arguments: '{"key":"a","text":"b"}' },
      ]),
    )
    const stop = new AbortController()
    const { outcome, events } = await h.turn('go', {
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'permission_decision')
          setTimeout(() => stop.abort(new AbortReason('stop')), 50)
      },
    })
    expect(outcome.reason).toBe('aborted')
    expect(h.tools.calls[0]?.aborted).toBe(true)
    expect(ofType(events, 'tool_result').map((r) => [r.id, r.failureKind])).toEqual([
      ['w', 'cancelled'],
      ['x', 'cancelled'],
    ])
    // w was running when it was stopped; x never started
    expect(ofType(events, 'tool_result').map((r) => r.content)).toEqual([
      expect.stringMatching(/call to wait_forever was cancelled and may not have completed/),
      'The user stopped the turn; the call to write_note was not run.',
    ])
    expectValidHistory()
    h.server.enqueue(textReply('Stopped, as you asked.'))
    expect((await h.turn('why did you stop?')).outcome.reason).toBe('completed')
  })

  it('Stop is not held up by a tool that ignores the abort signal', async () => {
    h.server.enqueue(toolCallsReply([{ id: 'i', name: 'ignore_abort', arguments: '{}' }]))
    const stop = new AbortController()
    setTimeout(() => stop.abort(new AbortReason('stop')), 200)
    // the tool never settles: a turn that waited for it would never end (the test times out)
    const { outcome } = await h.turn('go', { signal: stop.signal })
    expect(outcome.reason).toBe('aborted')
    expectValidHistory()
  })

  it('Stop while waiting for approval answers the call as cancelled', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'w', name: 'write_note', arguments: '{"key":"a","text":"b"}' }]),
    )
    h.approver.answers = ['hang']
    const stop = new AbortController()
    const { outcome, events } = await h.turn('go', {
      policy: 'ask',
      signal: stop.signal,
      onEvent: (e) => {
        if (e.type === 'permission_request')
          setTimeout(() => stop.abort(new AbortReason('stop')), 20)
      },
    })
    expect(outcome.reason).toBe('aborted')
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ failureKind: 'cancelled' })
    // nobody allowed it, so it never ran: the model is not told it "may not have completed"
    expect(ofType(events, 'tool_result')[0]?.content).toBe(
      'The user stopped the turn; the call to write_note was not run.',
    )
    expect(h.tools.calls).toHaveLength(0)
    expectValidHistory()
  })
})
