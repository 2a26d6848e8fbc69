import { describe, expect, it } from 'vitest'
import type { ApprovalRequestEvent } from '../../src-preload/contract/events'
import { ApprovalBroker } from '../../src-main/services/host/approvals'
import { EventHub } from '../../src-main/services/host/event-hub'

const request = (requestId: string, sessionId = 's1'): ApprovalRequestEvent => ({
  type: 'permission_request',
  sessionId,
  turnId: 't1',
  at: 0,
  requestId,
  toolCallId: `call-${requestId}`,
  name: 'write_note',
  server: 'test',
  tool: 'write_note',
  description: 'Writes a note.',
  arguments: {},
  annotations: {},
  trusted: true,
})

describe('the approval broker', () => {
  it('refuses an answer to a request no renderer was given, and takes it once one was', async () => {
    const hub = new EventHub()
    const broker = new ApprovalBroker(hub, 60_000)
    // asked while no window is attached: nobody could have seen it
    const answer = broker.request(request('r1'), new AbortController().signal)
    expect(broker.respond('r1', 'allow_once')).toBe(false)
    expect(broker.size).toBe(1)
    // a window attaches and fetches what is pending: now it may answer
    const unsubscribe = hub.subscribe(() => {})
    expect(broker.pendingAll().map((r) => r.requestId)).toEqual(['r1'])
    expect(broker.respond('r1', 'allow_once')).toBe(true)
    await expect(answer).resolves.toEqual({ decision: 'allow_once' })
    unsubscribe()
  })

  it('a request asked while a renderer is attached (its event went out) can be answered, once', async () => {
    const hub = new EventHub()
    const broker = new ApprovalBroker(hub, 60_000)
    const unsubscribe = hub.subscribe(() => {})
    const answer = broker.request(request('r2'), new AbortController().signal)
    expect(broker.respond('no-such-id', 'allow_once')).toBe(false)
    expect(broker.respond('r2', 'deny', 'no')).toBe(true)
    expect(broker.respond('r2', 'allow_once')).toBe(false)
    await expect(answer).resolves.toEqual({ decision: 'deny', reason: 'no' })
    unsubscribe()
  })

  it('handing over one session’s requests does not open the others', async () => {
    const hub = new EventHub()
    const broker = new ApprovalBroker(hub, 60_000)
    const stop = new AbortController()
    void broker.request(request('a', 's1'), stop.signal).catch(() => {})
    void broker.request(request('b', 's2'), stop.signal).catch(() => {})
    expect(broker.pendingFor('s1').map((r) => r.requestId)).toEqual(['a'])
    expect(broker.respond('b', 'allow_once')).toBe(false)
    expect(broker.respond('a', 'allow_once')).toBe(true)
    stop.abort(new Error('done'))
  })
})
