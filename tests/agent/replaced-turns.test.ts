import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createHarness, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness() // a strict server: an unanswered tool call would be refused
})
afterEach(async () => {
  await h.close()
})

/** [role, content] of each message the model was sent in request `i` */
function sent(i: number): [string, unknown][] {
  const body = h.server.requests[i]?.body as { messages: { role: string; content: unknown }[] }
  return body.messages.map((m) => [m.role, m.content])
}

describe('a turn that replaces the newest user message', () => {
  it('regenerate: the model is not sent the earlier answer; both stay stored', async () => {
    h.server.enqueue(textReply('First answer.'))
    await h.turn('What is a cairn?')
    h.server.enqueue(textReply('Second answer.'))
    const { outcome } = await h.turn('What is a cairn?', { supersedes: 1 })
    expect(outcome.reason).toBe('completed')
    expect(sent(1)).toEqual([['user', 'What is a cairn?']])
    const stored = h.store.listMessages(h.sessionId)
    expect(stored.map((m) => [m.seq, m.role, m.content, m.supersedes])).toEqual([
      [1, 'user', 'What is a cairn?', null],
      [2, 'assistant', 'First answer.', null],
      [3, 'user', 'What is a cairn?', 1],
      [4, 'assistant', 'Second answer.', null],
    ])
    // the next turn goes on from the newest version
    h.server.enqueue(textReply('Yes.'))
    await h.turn('Really?')
    expect(sent(2)).toEqual([
      ['user', 'What is a cairn?'],
      ['assistant', 'Second answer.'],
      ['user', 'Really?'],
    ])
  })

  it('edit after a turn with tool calls: the strict server accepts the shorter history', async () => {
    h.server.enqueue(textReply('Hello.'))
    await h.turn('hi')
    h.server.enqueue(
      toolCallsReply([{ id: 'call_0', name: 'read_note', arguments: '{"key":"a"}' }]),
      textReply('Note a.'),
    )
    await h.turn('read a')
    h.server.enqueue(
      toolCallsReply([{ id: 'call_0', name: 'read_note', arguments: '{"key":"b"}' }]),
      textReply('Note b.'),
    )
    const { outcome } = await h.turn('read b', { supersedes: 3 })
    expect(outcome.reason).toBe('completed')
    expect(sent(3).map(([role]) => role)).toEqual(['user', 'assistant', 'user'])
    expect(sent(4)).toEqual([
      ['user', 'hi'],
      ['assistant', 'Hello.'],
      ['user', 'read b'],
      ['assistant', null],
      ['tool', 'note b: content of b'],
    ])
    expect(h.store.listMessages(h.sessionId)).toHaveLength(2 + 4 + 4)
  })

  it('retry after a failed turn: the error is not sent again', async () => {
    h.server.enqueue({ type: 'http', status: 400, body: { error: { message: 'bad' } } })
    const failed = await h.turn('try this')
    expect(failed.outcome.reason).toBe('error')
    h.server.enqueue(textReply('Done.'))
    const retried = await h.turn('try this', { supersedes: 1 })
    expect(retried.outcome.reason).toBe('completed')
    expect(sent(1)).toEqual([['user', 'try this']])
  })
})
