import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, ofType, shownText, textOf, type Harness } from '../support/agent-harness'
import { dropAfter, httpError, textReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

const story = 'Once upon a time there was a small stone that wanted to become a cairn.'

describe('retries in a turn', () => {
  it('a drop mid-stream is retried and no text is shown or stored twice', async () => {
    h.server.enqueue(
      dropAfter(textReply(story, { chunkSize: 5 }), 4),
      textReply(story, { chunkSize: 5 }),
    )
    const { outcome, events } = await h.turn('tell me')
    expect(outcome.reason).toBe('completed')
    const retry = ofType(events, 'retry')
    expect(retry).toHaveLength(1)
    expect(retry[0]).toMatchObject({ attempt: 2, discardPartial: true })
    // the deltas include the dropped attempt's start; a UI that drops it on `retry` shows the story once
    expect(textOf(events)).not.toBe(story)
    expect(shownText(events)).toBe(story)
    const assistants = h.store.listMessages(h.sessionId).filter((m) => m.role === 'assistant')
    expect(assistants.map((m) => m.content)).toEqual([story])
  })

  it('honours Retry-After on 429', async () => {
    h.server.enqueue(httpError(429, 'slow down', { 'retry-after': '2' }), textReply('ok'))
    const { outcome, events } = await h.turn('hi')
    expect(outcome.reason).toBe('completed')
    expect(ofType(events, 'retry')[0]).toMatchObject({ delayMs: 2000, discardPartial: false })
    expect(h.clock.slept).toContain(2000)
  })

  it('does not retry a rejected API key and says what to fix', async () => {
    h.server.enqueue(httpError(401, 'invalid api key'), textReply('never'))
    const { outcome, events } = await h.turn('hi')
    expect(outcome.reason).toBe('error')
    expect(outcome.error?.code).toBe('auth')
    expect(outcome.error?.message).toContain(h.server.baseURL)
    expect(ofType(events, 'retry')).toHaveLength(0)
    expect(h.server.requests).toHaveLength(1)
    // the user's message is kept; the next turn can go on
    h.server.enqueue(textReply('Now it works.'))
    expect((await h.turn('again')).outcome.reason).toBe('completed')
  })

  it('keeps the partial text, marked interrupted, when the retries run out', async () => {
    for (let i = 0; i < 4; i++) h.server.enqueue(dropAfter(textReply(story, { chunkSize: 5 }), 3))
    const { outcome, events } = await h.turn('tell me', { limits: { maxRetries: 3 } })
    expect(outcome.reason).toBe('error')
    expect(outcome.error?.code).toMatch(/network|interrupted/)
    expect(ofType(events, 'retry')).toHaveLength(3)
    const last = h.store.listMessages(h.sessionId).at(-1)
    expect(last).toMatchObject({ role: 'assistant', status: 'interrupted' })
    expect(story.startsWith(last!.content)).toBe(true)
    expect(last!.content.length).toBeGreaterThan(0)
    expect(shownText(events)).toBe(last!.content)
  })

  it('keeps what streamed before the server died when the retries that follow get no answer', async () => {
    h.server.enqueue(dropAfter(textReply(story, { chunkSize: 5 }), 4))
    h.server.setFallback(httpError(502, 'bad gateway'))
    const { outcome, events } = await h.turn('tell me', { limits: { maxRetries: 2 } })
    expect(outcome.reason).toBe('error')
    expect(outcome.error?.message).toContain('gave up after 3 attempts')
    expect(ofType(events, 'retry')).toHaveLength(2)
    const last = h.store.listMessages(h.sessionId).at(-1)
    expect(last).toMatchObject({ role: 'assistant', status: 'interrupted' })
    expect(last!.content.length).toBeGreaterThan(0)
    expect(story.startsWith(last!.content)).toBe(true)
  })

  it('keeps what streamed when the server is gone for good (nothing listens any more)', async () => {
    h.server.enqueue(dropAfter(textReply(story, { chunkSize: 5 }), 4))
    const { outcome } = await h.turn('tell me', {
      limits: { maxRetries: 3 },
      onEvent: (e) => {
        if (e.type === 'retry' && e.attempt === 2) void h.server.close()
      },
    })
    expect(outcome.reason).toBe('error')
    const last = h.store.listMessages(h.sessionId).at(-1)
    expect(last).toMatchObject({ role: 'assistant', status: 'interrupted' })
    expect(story.startsWith(last!.content)).toBe(true)
    expect(last!.content.length).toBeGreaterThan(0)
  })
})
