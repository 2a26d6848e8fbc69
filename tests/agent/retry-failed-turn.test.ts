import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../support/agent-harness'
import { dropAfter, httpError, textReply, type RecordedRequest } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

const question = 'What is a cairn?'

/** the messages a request sent, as role: content */
function sent(req: RecordedRequest | undefined): string[] {
  const body = req?.body as { messages: { role: string; content: unknown }[] }
  return body.messages.map((m) => `${m.role}: ${String(m.content)}`)
}

describe('asking again after a failed turn', () => {
  it('the same question replaces the unanswered one: it is sent once', async () => {
    h.server.enqueue(httpError(401, 'invalid api key'))
    expect((await h.turn(question)).outcome.reason).toBe('error')
    h.server.enqueue(textReply('A pile of stones.'))
    expect((await h.turn(question)).outcome.reason).toBe('completed')
    expect(sent(h.server.requests[1])).toEqual([`user: ${question}`])
    const users = h.store.listMessages(h.sessionId).filter((m) => m.role === 'user')
    expect(users).toHaveLength(2)
    expect(users[1]!.supersedes).toBe(users[0]!.seq)
  })

  it('the window’s Retry (which names the message it replaces) sends it once too', async () => {
    h.server.enqueue(httpError(401, 'invalid api key'))
    await h.turn(question)
    const failed = h.store.listMessages(h.sessionId).at(-1)!
    h.server.enqueue(textReply('A pile of stones.'))
    await h.turn(question, { supersedes: failed.seq })
    expect(sent(h.server.requests[1])).toEqual([`user: ${question}`])
  })

  it('after an answer cut off mid-stream, neither the old question nor the partial is sent', async () => {
    h.server.enqueue(textReply('Hello.'))
    await h.turn('hi')
    h.server.enqueue(dropAfter(textReply('A cairn is a pile of stones.', { chunkSize: 4 }), 3))
    h.server.setFallback(httpError(502, 'bad gateway'))
    expect((await h.turn(question, { limits: { maxRetries: 0 } })).outcome.reason).toBe('error')
    expect(h.store.listMessages(h.sessionId).at(-1)?.status).toBe('interrupted')
    h.server.setFallback(null)
    h.server.enqueue(textReply('A pile of stones.'))
    await h.turn(question)
    expect(sent(h.server.requests.at(-1))).toEqual([
      'user: hi',
      'assistant: Hello.',
      `user: ${question}`,
    ])
  })

  it('another question after a failure is a new question: both are sent', async () => {
    h.server.enqueue(httpError(401, 'invalid api key'))
    await h.turn(question)
    h.server.enqueue(textReply('Stones.'))
    await h.turn('And who builds them?')
    // consecutive user messages go out as one (provider hygiene)
    expect(sent(h.server.requests[1])).toEqual([`user: ${question}\n\nAnd who builds them?`])
  })

  it('the same question after a whole answer is asked again on purpose: both are kept', async () => {
    h.server.enqueue(textReply('A pile of stones.'), textReply('Still a pile of stones.'))
    await h.turn(question)
    await h.turn(question)
    expect(sent(h.server.requests[1])).toEqual([
      `user: ${question}`,
      'assistant: A pile of stones.',
      `user: ${question}`,
    ])
  })
})
