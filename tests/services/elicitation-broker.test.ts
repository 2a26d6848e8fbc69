import { describe, expect, it } from 'vitest'
import type { ElicitationRequestEvent } from '../../src-preload/contract/events'
import { ElicitationBroker } from '../../src-main/services/host/elicitations'
import { EventHub } from '../../src-main/services/host/event-hub'

const question = (requestId: string, sessionId = 's1'): ElicitationRequestEvent => ({
  type: 'elicitation_request',
  sessionId,
  turnId: 't1',
  at: 0,
  requestId,
  toolCallId: `call-${requestId}`,
  server: 'hotel',
  mode: 'form',
  message: 'How many nights?',
  requestedSchema: {
    type: 'object',
    properties: { nights: { type: 'integer', minimum: 1, maximum: 30 } },
    required: ['nights'],
  },
})

describe('the elicitation broker', () => {
  it('hands pending questions to a renderer per session, and takes the first answer that fits', async () => {
    const hub = new EventHub()
    const broker = new ElicitationBroker(hub, 60_000)
    const answer = broker.request(question('q1'), new AbortController().signal)
    void broker.request(question('q2', 's2'), new AbortController().signal)
    // nobody has been shown it yet
    expect(broker.respond('q1', { action: 'decline' })).toEqual({ accepted: false })
    const unsubscribe = hub.subscribe(() => {})
    expect(broker.pendingFor('s1').map((q) => q.requestId)).toEqual(['q1'])
    // an answer that does not fit the form is refused with the reason; the question stays
    expect(broker.respond('q1', { action: 'accept', content: { nights: 40 } })).toEqual({
      accepted: false,
      error: 'nights: At most 30.',
    })
    expect(broker.respond('q1', { action: 'accept', content: { nights: 2, extra: 'x' } })).toEqual({
      accepted: true,
    })
    // what reaches the server is the form's fields only
    await expect(answer).resolves.toEqual({ action: 'accept', content: { nights: 2 } })
    // a second window's answer comes too late
    expect(broker.respond('q1', { action: 'decline' })).toEqual({ accepted: false })
    expect(broker.pendingAll().map((q) => q.requestId)).toEqual(['q2'])
    unsubscribe()
  })

  it('Stop withdraws the question', async () => {
    const hub = new EventHub()
    const unsubscribe = hub.subscribe(() => {})
    const broker = new ElicitationBroker(hub, 60_000)
    const stop = new AbortController()
    const answer = broker.request(question('q1'), stop.signal)
    stop.abort(new Error('stopped'))
    await expect(answer).rejects.toThrow('stopped')
    expect(broker.size).toBe(0)
    unsubscribe()
  })

  it('cancels what waits once no window has been attached for a while', async () => {
    const hub = new EventHub()
    const broker = new ElicitationBroker(hub, 20)
    await expect(broker.request(question('q1'), new AbortController().signal)).resolves.toEqual({
      action: 'cancel',
    })
  })
})
