/**
 * The routes about a conversation's branches and its running state, part of the contract
 * suite (run over both transports): `chat.send` with `replaces` and `after`,
 * `chat.regenerate`, `chat.status`, `sessions.setModel`.
 */
import { expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { textReply, toolCallsReply } from '../support/openai-server'
import type { SuiteEnv } from './contract-suite'

export interface HistoryContext {
  env: SuiteEnv
  b: TestBridge
  workspace: string
}

export function historyRouteTests(ctx: () => HistoryContext): void {
  /** runs one turn to its end; gives its session and the session's messages */
  async function turn(
    text: string,
    more: { sessionId?: string; replaces?: string; after?: string } = {},
  ): Promise<{ sessionId: string; turnId: string; messages: StoredMessage[] }> {
    const { b, workspace } = ctx()
    const { sessionId, turnId } = unwrap(await b.request('chat.send', { text, workspace, ...more }))
    return ended(sessionId, turnId)
  }

  /** waits for the turn's end; gives its session and the session's messages */
  async function ended(
    sessionId: string,
    turnId: string,
  ): Promise<{ sessionId: string; turnId: string; messages: StoredMessage[] }> {
    const { b } = ctx()
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    const messages = unwrap(await b.request('sessions.get', { id: sessionId })).messages
    return { sessionId, turnId, messages }
  }

  const lastRequestTexts = (): unknown[] => {
    const body = ctx().env.server.requests.at(-1)?.body as {
      messages: { role: string; content: unknown }[]
    }
    // the conversation, without the system prompt the host assembles for every call
    return body.messages.filter((m) => m.role !== 'system').map((m) => m.content)
  }

  it('chat.send with replaces: the model does not see the replaced answer, both are kept', async () => {
    const { env, b } = ctx()
    env.server.enqueue(textReply('Granite.'))
    const first = await turn('Which rock?')
    const question = first.messages[0]!
    env.server.enqueue(textReply('Basalt.'))
    const second = await turn('Which rock?', {
      sessionId: first.sessionId,
      replaces: question.id,
    })
    expect(lastRequestTexts()).toEqual(['Which rock?'])
    // the open branch is the new exchange; the replaced one is kept, as the other version
    expect(second.messages.map((m) => [m.seq, m.role, m.content, m.supersedes])).toEqual([
      [3, 'user', 'Which rock?', 1],
      [4, 'assistant', 'Basalt.', null],
    ])
    const page = unwrap(await b.request('sessions.get', { id: first.sessionId }))
    expect(page.versions?.[3]).toEqual([1, 3])
    // message_saved says where the message went, beside the event's own number (`seq`)
    const saved = b.events.flatMap((e) =>
      e.event === 'agent' &&
      e.payload.turnId === second.turnId &&
      e.payload.type === 'message_saved'
        ? [e.payload.messageSeq]
        : [],
    )
    expect(saved).toEqual([3, 4])
    // edit and resend the newest question: a different text replaces it
    env.server.enqueue(textReply('Obsidian.'))
    const edited = await turn('Which volcanic glass?', {
      sessionId: first.sessionId,
      replaces: second.messages[0]!.id,
    })
    expect(lastRequestTexts()).toEqual(['Which volcanic glass?'])
    expect(edited.messages.at(-2)).toMatchObject({ supersedes: 3 })
  })

  it('chat.send after an earlier message and chat.regenerate start branches the model sees alone', async () => {
    const { env, b } = ctx()
    env.server.enqueue(textReply('One.'), textReply('Two.'))
    const { sessionId } = await turn('first question')
    const { messages } = await turn('second question', { sessionId })
    env.server.enqueue(textReply('Another way.'))
    await turn('go on from One', { sessionId, after: messages[1]!.id })
    expect(lastRequestTexts()).toEqual(['first question', 'One.', 'go on from One'])
    env.server.enqueue(textReply('One, again.'))
    const again = unwrap(
      await b.request('chat.regenerate', { sessionId, messageId: messages[1]!.id }),
    )
    const regenerated = await ended(again.sessionId, again.turnId)
    expect(lastRequestTexts()).toEqual(['first question'])
    expect(regenerated.messages.at(-1)).toMatchObject({
      role: 'assistant',
      content: 'One, again.',
      parentSeq: 1,
    })
    expect(unwrap(await b.request('sessions.get', { id: sessionId })).session.leafSeq).toBe(
      regenerated.messages.at(-1)!.seq,
    )
  })

  it('chat.send refuses to start a branch where it cannot, saving nothing', async () => {
    const { env, b } = ctx()
    env.server.enqueue(textReply('One.'), textReply('Two.'))
    const { sessionId } = await turn('first question')
    const { messages } = await turn('second question', { sessionId })
    const requests = env.server.requests.length
    const refused = async (more: object, code: string, message?: RegExp) => {
      const r = await b.request('chat.send', { sessionId, text: 'again', ...more })
      expect(r).toMatchObject({ ok: false, error: { code } })
      if (message && !r.ok) expect(r.error.message).toMatch(message)
    }
    await refused({ replaces: messages[3]!.id }, 'conflict', /Only a message you wrote/)
    await refused({ replaces: 'no-such-message' }, 'not_found', /no-such-message/)
    await refused({ after: 'no-such-message' }, 'not_found', /no-such-message/)
    const other = await b.request('chat.send', { text: 'x', replaces: messages[2]!.id })
    expect(other).toMatchObject({ ok: false, error: { code: 'bad_request' } })
    const gone = await b.request('chat.send', {
      sessionId: 'no-such-session',
      text: 'x',
      replaces: messages[2]!.id,
    })
    expect(gone).toMatchObject({ ok: false, error: { code: 'no_session' } })
    const regenerate = await b.request('chat.regenerate', { sessionId, messageId: 'nope' })
    expect(regenerate).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(unwrap(await b.request('sessions.get', { id: sessionId })).messages).toEqual(messages)
    expect(env.server.requests).toHaveLength(requests)
  })

  it('chat.status lists every running turn and every pending approval', async () => {
    const { env, b, workspace } = ctx()
    env.server.enqueue(
      toolCallsReply([{ id: 'st1', name: 'list_directory', arguments: '{}' }]),
      textReply('ok'),
    )
    const { sessionId, turnId } = unwrap(
      await b.request('chat.send', { text: 'list for status', workspace }),
    )
    const ask = await waitForEvent(
      b,
      'agent',
      (e) => e.turnId === turnId && e.type === 'permission_request',
    )
    if (ask.type !== 'permission_request') throw new Error('unreachable')
    const status = unwrap(await b.request('chat.status', {}))
    expect(status.turns).toContainEqual({ sessionId, turnId })
    expect(status.pendingApprovals).toContainEqual(
      expect.objectContaining({ requestId: ask.requestId, sessionId, toolCallId: 'st1' }),
    )
    unwrap(await b.request('approvals.respond', { requestId: ask.requestId, decision: 'deny' }))
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    const after = unwrap(await b.request('chat.status', {}))
    expect(after.turns.some((t) => t.turnId === turnId)).toBe(false)
    expect(after.pendingApprovals.some((p) => p.requestId === ask.requestId)).toBe(false)
  })

  it("sessions.setModel switches the session's model from its next turn on", async () => {
    const { env, b } = ctx()
    env.server.enqueue(textReply('From m.'))
    const { sessionId } = await turn('which model?')
    expect(env.server.requests.at(-1)?.body.model).toBe('m')
    const changes = () =>
      b.events.filter((e) => e.event === 'sessions.changed' && e.payload.sessionId === sessionId)
        .length
    const before = changes()
    const updated = unwrap(await b.request('sessions.setModel', { id: sessionId, model: 'm2' }))
    expect(updated).toMatchObject({ id: sessionId, model: 'm2' })
    await waitForEvent(
      b,
      'sessions.changed',
      (p) => p.sessionId === sessionId && changes() > before,
    )
    env.server.enqueue(textReply('From m2.'))
    await turn('and now?', { sessionId })
    expect(env.server.requests.at(-1)?.body.model).toBe('m2')
    expect(
      unwrap(await b.request('sessions.get', { id: sessionId })).messages.at(-1),
    ).toMatchObject({ role: 'assistant', model: 'm2' })
    expect(await b.request('sessions.setModel', { id: 'nope', model: 'm2' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })
}
