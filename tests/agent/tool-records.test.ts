import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

const write = (id: string) => ({ id, name: 'write_note', arguments: `{"key":"${id}","text":"t"}` })

/** the stored tool messages: [toolCallId, decidedBy, durationMs, failureKind] */
function toolRecords() {
  return h.store
    .listMessages(h.sessionId)
    .filter((m) => m.role === 'tool')
    .map((m) => [m.toolCallId, m.decidedBy, m.durationMs, m.failureKind])
}

describe('what a tool message records', () => {
  it('how long an executed tool ran, and that the user allowed it', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'r1', name: 'read_note', arguments: '{"key":"a","delayMs":60}' }]),
      textReply('done'),
    )
    h.approver.answers = [{ decision: 'allow_once' }]
    const started = performance.now()
    await h.turn('read', { policy: 'ask' })
    const turnMs = performance.now() - started
    const [tool] = h.store.listMessages(h.sessionId).filter((m) => m.role === 'tool')
    expect(tool?.decidedBy).toBe('user')
    // the tool slept 60 ms; its time is part of the turn's
    expect(tool?.durationMs).toBeGreaterThanOrEqual(55)
    expect(tool?.durationMs).toBeLessThanOrEqual(Math.ceil(turnMs))
  })

  it('a remembered "always allow" rule as `rule`, the first answer as `user`', async () => {
    h.server.enqueue(
      toolCallsReply([write('w1')]),
      toolCallsReply([write('w2')]),
      textReply('done'),
    )
    h.approver.answers = [{ decision: 'allow_always' }]
    await h.turn('write twice', { policy: 'ask' })
    expect(toolRecords()).toEqual([
      ['w1', 'user', expect.any(Number), null],
      ['w2', 'rule', expect.any(Number), null],
    ])
  })

  it('the policy (allow-all, deny-all, read-only) as `policy`; a denial did not run', async () => {
    h.server.enqueue(toolCallsReply([write('w1')]), textReply('ok'))
    await h.turn('write', { policy: 'allow-all' })
    h.server.enqueue(toolCallsReply([write('w2')]), textReply('ok'))
    await h.turn('write', { policy: 'deny-all' })
    h.server.enqueue(
      toolCallsReply([{ id: 'r1', name: 'read_note', arguments: '{"key":"a"}' }]),
      textReply('ok'),
    )
    await h.turn('read', { policy: 'read-only' })
    expect(toolRecords()).toEqual([
      ['w1', 'policy', expect.any(Number), null],
      ['w2', 'policy', null, 'denied'],
      ['r1', 'policy', expect.any(Number), null],
    ])
  })

  it('a denial by the user: decided by `user`, no duration', async () => {
    h.server.enqueue(toolCallsReply([write('w1')]), textReply('ok'))
    h.approver.answers = [{ decision: 'deny' }]
    await h.turn('write', { policy: 'ask' })
    expect(toolRecords()).toEqual([['w1', 'user', null, 'denied']])
  })

  it('nobody decided an unknown tool or invalid arguments', async () => {
    h.server.enqueue(
      toolCallsReply([
        { id: 'u1', name: 'no_such_tool', arguments: '{}' },
        { id: 'b1', name: 'read_note', arguments: '{"nokey":1}' },
      ]),
      textReply('ok'),
    )
    await h.turn('go', { policy: 'allow-all' })
    expect(toolRecords()).toEqual([
      ['u1', null, null, 'unknown_tool'],
      ['b1', null, null, 'invalid_arguments'],
    ])
  })

  it('stopped while asking: nobody decided; stopped while running: the decision is kept', async () => {
    h.server.enqueue(toolCallsReply([write('w1')]))
    h.approver.answers = ['hang']
    const asking = new AbortController()
    await h.turn('write', {
      policy: 'ask',
      signal: asking.signal,
      onEvent: (e) => e.type === 'permission_request' && asking.abort(),
    })
    h.server.enqueue(toolCallsReply([{ id: 'f1', name: 'wait_forever', arguments: '{}' }]))
    const running = new AbortController()
    await h.turn('wait', {
      policy: 'allow-all',
      signal: running.signal,
      onEvent: (e) => e.type === 'permission_decision' && setTimeout(() => running.abort(), 30),
    })
    expect(toolRecords()).toEqual([
      ['w1', null, null, 'cancelled'],
      ['f1', 'policy', null, 'cancelled'],
    ])
  })

  it('tool_result carries the rich parts a tool returned (and none for plain text)', async () => {
    h.server.enqueue(
      toolCallsReply([
        { id: 'p1', name: 'picture', arguments: '{}' },
        { id: 'r1', name: 'read_note', arguments: '{"key":"a"}' },
      ]),
      textReply('A red dot.'),
    )
    const { events } = await h.turn('draw')
    const [picture, note] = ofType(events, 'tool_result')
    expect(picture?.parts).toEqual([
      { type: 'text', text: 'a red dot' },
      { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo='.repeat(10) },
    ])
    expect(note && 'parts' in note).toBe(false)
    const stored = h.store.listMessages(h.sessionId).find((m) => m.toolCallId === 'p1')
    expect(stored?.parts).toEqual(picture?.parts)
  })
})
