import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openBranch } from '../../src-main/core/agent/history-tree'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { completionReply, textReply, toolCallsReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness() // a strict server: it refuses what a strict provider refuses
})
afterEach(async () => {
  await h.close()
})

/** [role, content] of each message the model was sent in request `i` */
function sent(i: number): [string, unknown][] {
  const body = h.server.requests[i]?.body as { messages: { role: string; content: unknown }[] }
  return body.messages.map((m) => [m.role, m.content])
}

/** the contents of the session's open branch */
function open(): string[] {
  const session = h.store.getSession(h.sessionId)!
  return openBranch(h.store.listMessages(h.sessionId), session.leafSeq).map((m) => m.content)
}

/** five exchanges: q1 a1 … q5 a5 (seqs 1 to 10) */
async function fiveExchanges(): Promise<void> {
  for (let i = 1; i <= 5; i++) {
    h.server.enqueue(textReply(`a${i}`))
    await h.turn(`q${i}`)
  }
}

describe('turns on a branch of the conversation', () => {
  it('edit the second of five messages: the model is sent the path to it and nothing after', async () => {
    await fiveExchanges()
    h.server.enqueue(textReply('a2 for the edit'))
    const { outcome, events } = await h.turn('q2 edited', { supersedes: 3 })
    expect(outcome.reason).toBe('completed')
    expect(sent(5)).toEqual([
      ['user', 'q1'],
      ['assistant', 'a1'],
      ['user', 'q2 edited'],
    ])
    const stored = h.store.listMessages(h.sessionId)
    expect(stored).toHaveLength(12)
    expect(stored.slice(10).map((m) => [m.seq, m.parentSeq, m.supersedes])).toEqual([
      [11, 2, 3],
      [12, 11, null],
    ])
    expect(ofType(events, 'turn_start')[0]).toMatchObject({ after: 2 })
    expect(open()).toEqual(['q1', 'a1', 'q2 edited', 'a2 for the edit'])
    // the next message goes on from the edit
    h.server.enqueue(textReply('a3 on the new branch'))
    await h.turn('q3 again')
    expect(sent(6).map(([, c]) => c)).toEqual(['q1', 'a1', 'q2 edited', 'a2 for the edit', 'q3 again'])
  })

  it('regenerate an answer in the middle: the question is sent once, the earlier answer kept', async () => {
    await fiveExchanges()
    h.server.enqueue(textReply('a3, again'))
    const { outcome, events } = await h.turn('', { answerAgain: 5 })
    expect(outcome.reason).toBe('completed')
    expect(sent(5)).toEqual([
      ['user', 'q1'],
      ['assistant', 'a1'],
      ['user', 'q2'],
      ['assistant', 'a2'],
      ['user', 'q3'],
    ])
    expect(ofType(events, 'turn_start')[0]).toMatchObject({ after: 5, answerAgain: 5 })
    const saved = ofType(events, 'message_saved')
    expect(saved.map((e) => [e.role, e.parentSeq])).toEqual([['assistant', 5]])
    expect(open()).toEqual(['q1', 'a1', 'q2', 'a2', 'q3', 'a3, again'])
    expect(h.store.listMessages(h.sessionId)).toHaveLength(11)
  })

  it('a message after an earlier one starts a branch there; the open branch follows it', async () => {
    await fiveExchanges()
    h.server.enqueue(textReply('from a2'))
    await h.turn('go on from a2', { parentSeq: 4 })
    expect(sent(5).map(([, c]) => c)).toEqual(['q1', 'a1', 'q2', 'a2', 'go on from a2'])
    expect(open()).toEqual(['q1', 'a1', 'q2', 'a2', 'go on from a2', 'from a2'])
    // the earlier branch is still there, whole
    const first = openBranch(h.store.listMessages(h.sessionId), 10).map((m) => m.content)
    expect(first).toHaveLength(10)
  })

  it('a tool call and its results stay on one branch: a branch after them keeps them, strict server and all', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'call_0', name: 'read_note', arguments: '{"key":"a"}' }]),
      textReply('Note a says hi.'),
    )
    await h.turn('read a')
    h.server.enqueue(textReply('ok'))
    await h.turn('thanks')
    // continue after the tool round (seq 3 is its result) rather than after the final answer
    h.server.enqueue(textReply('b instead'))
    const { outcome } = await h.turn('now b', { parentSeq: 3 })
    expect(outcome.reason).toBe('completed')
    expect(sent(3).map(([role]) => role)).toEqual(['user', 'assistant', 'tool', 'user'])
  })

  it('a summary written on one branch applies on another that holds the messages it covers', async () => {
    for (let i = 0; i < 12; i++) {
      h.store.appendMessage(h.sessionId, { role: 'user', content: `question ${i} ${'q'.repeat(400)}` })
      h.store.appendMessage(h.sessionId, {
        role: 'assistant',
        content: `answer ${i} ${'a'.repeat(600)}`,
        provider: h.server.baseURL,
        model: h.model,
      })
    }
    h.server.enqueue(
      completionReply('They talked about questions 1 to 2.', { id: 's', model: 'test-model' }),
      textReply('first branch'),
    )
    await h.turn('new question', { limits: { contextTokens: 4000 } })
    const summary = h.store.listMessages(h.sessionId).find((m) => m.kind === 'summary')!
    expect(summary.parentSeq).toBe(25)
    // the user goes back and asks something else after answer 11 (seq 24)
    h.server.enqueue(textReply('second branch'))
    await h.turn('another question', { parentSeq: 24, limits: { contextTokens: 4000 } })
    const last = h.server.requests.length - 1
    expect(JSON.stringify(sent(last))).toContain('They talked about questions 1 to 2.')
    expect(JSON.stringify(sent(last))).not.toContain('new question')
    expect(JSON.stringify(sent(last))).not.toContain('first branch')
    // nothing follows a summary: the branch went on from the user's message
    const saved = h.store.listMessages(h.sessionId)
    expect(saved.find((m) => m.content === 'first branch')?.parentSeq).toBe(25)
    expect(saved.filter((m) => m.kind === 'summary')).toHaveLength(1)
  })
})
