import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import type { SessionRecord, StoredMessage } from '../../src-preload/contract/dto'
import { createLiveStore, NEW_CHAT } from '../../src-renderer/src/state/live-store'
import { keys, type Conversation } from '../../src-renderer/src/state/queries'
import { sessionRecord } from './support/session-record'
import { createTestPlatform, manualFrames, RouteFailure, settle } from './support/test-platform'

const session = (id: string): SessionRecord => sessionRecord({ id, provider: 'p', model: 'm' })

function events(sessionId: string, turnId: string) {
  let seq = 0
  return (e: Record<string, unknown>): SequencedAgentEvent =>
    ({ sessionId, turnId, at: 0, seq: seq++, ...e }) as SequencedAgentEvent
}

function setup(extra: Parameters<typeof createTestPlatform>[0] = {}) {
  const stored: Record<string, StoredMessage[]> = {}
  const platform = createTestPlatform({
    'sessions.get': ({ id }) => ({
      session: session(id),
      messages: stored[id] ?? [],
      hasMore: false,
    }),
    ...extra,
  })
  const frames = manualFrames()
  const client = new QueryClient()
  const opened: (string | null)[] = []
  const store = createLiveStore(platform, client, {
    scheduler: frames,
    onSession: (id) => opened.push(id),
  })
  return { platform, frames, client, store, stored, opened }
}

describe('live turns, per session', () => {
  it('applies a stream of deltas once per frame, not once per event', async () => {
    const { platform, frames, store } = setup()
    await settle()
    store.getState().open('a')
    await settle()
    const ev = events('a', 't1')
    let updates = 0
    store.subscribe(() => updates++)
    platform.emit('agent', ev({ type: 'turn_start', model: 'm', provider: 'p' }))
    for (let i = 0; i < 200; i++) platform.emit('agent', ev({ type: 'text_delta', text: 'x' }))
    expect(store.getState().sessions['a']?.turn ?? null).toBeNull()
    expect(frames.pending).toBe(1)
    frames.run()
    const turn = store.getState().sessions['a']!.turn!
    expect(turn.items[0]).toMatchObject({ kind: 'answer', text: 'x'.repeat(200) })
    expect(updates).toBeLessThanOrEqual(3)
    expect(store.getState().running).toEqual({ a: 't1' })
  })

  it('keeps the events of a session that is not on screen, so switching back shows its turn as it is', async () => {
    const { platform, frames, store } = setup()
    await settle()
    store.getState().open('a')
    const evB = events('b', 'tb')
    platform.emit('agent', evB({ type: 'turn_start', model: 'm', provider: 'p' }))
    platform.emit('agent', evB({ type: 'text_delta', text: 'working in b' }))
    frames.run()
    expect(store.getState().currentId).toBe('a')
    expect(store.getState().running['b']).toBe('tb')
    store.getState().open('b')
    await settle()
    expect(store.getState().sessions['b']!.turn!.items[0]).toMatchObject({ text: 'working in b' })
  })

  it('coming in during a turn, it gets the turn from its start (attach) and then goes on live', async () => {
    const ev = events('a', 't1')
    const early = [
      ev({ type: 'turn_start', model: 'm', provider: 'p' }),
      ev({ type: 'text_delta', text: 'early ' }),
    ]
    const { platform, frames, store } = setup({
      'chat.attach': () => ({ turn: { turnId: 't1', events: early }, pendingApprovals: [] }),
    })
    await settle()
    platform.emit('agent', ev({ type: 'text_delta', text: 'late' }))
    frames.run()
    await settle()
    await settle()
    expect(store.getState().sessions['a']!.turn!.items[0]).toMatchObject({ text: 'early late' })
  })

  it('knows what runs and what waits everywhere from the start (chat.status)', async () => {
    const ev = events('b', 'tb')
    const request = ev({
      type: 'permission_request',
      requestId: 'r1',
      toolCallId: 'c1',
      name: 'x',
      server: 's',
      tool: 'x',
      description: '',
      arguments: {},
      annotations: {},
      trusted: true,
    })
    const { store } = setup({
      'chat.status': () => ({
        turns: [{ sessionId: 'b', turnId: 'tb' }],
        pendingApprovals: [request as never],
      }),
      'chat.attach': () => ({
        turn: { turnId: 'tb', events: [] },
        pendingApprovals: [request as never],
      }),
    })
    await settle()
    await settle()
    expect(store.getState().running).toEqual({ b: 'tb' })
    expect(store.getState().approvals.map((a) => a.requestId)).toEqual(['r1'])
  })

  it('a message that cannot be sent goes back into the box with the reason', async () => {
    const { store } = setup({
      'chat.send': () => {
        throw new RouteFailure('no_provider', 'No provider is configured.')
      },
    })
    await settle()
    store.getState().setDraft('Keep me')
    expect(await store.getState().send('Keep me')).toBe(false)
    expect(store.getState().sessions[NEW_CHAT]).toMatchObject({
      draft: 'Keep me',
      sendError: { code: 'no_provider', message: 'No provider is configured.' },
      outbox: null,
    })
  })

  it('a new chat becomes its session once sent; the turn ends, the stored history takes over', async () => {
    const { platform, frames, store, stored, client, opened } = setup({
      'chat.send': () => ({ sessionId: 'n', turnId: 't9' }),
    })
    await settle()
    const sending = store.getState().send('Hello')
    expect(store.getState().sessions[NEW_CHAT]!.outbox).toMatchObject({ text: 'Hello' })
    await sending
    expect(store.getState().currentId).toBe('n')
    expect(opened).toContain('n')
    const ev = events('n', 't9')
    platform.emit('agent', ev({ type: 'turn_start', model: 'm', provider: 'p' }))
    platform.emit(
      'agent',
      ev({
        type: 'message_saved',
        messageId: 'u',
        messageSeq: 1,
        role: 'user',
        status: 'complete',
      }),
    )
    platform.emit('agent', ev({ type: 'text_delta', text: 'Hi!' }))
    frames.run()
    expect(store.getState().sessions['n']!.turn!.running).toBe(true)
    stored['n'] = [
      {
        id: 'u',
        seq: 1,
        role: 'user',
        kind: 'message',
        turnId: 't9',
        content: 'Hello',
      } as StoredMessage,
      {
        id: 'a',
        seq: 2,
        role: 'assistant',
        kind: 'message',
        turnId: 't9',
        content: 'Hi!',
      } as StoredMessage,
    ]
    platform.emit(
      'agent',
      ev({
        type: 'message_saved',
        messageId: 'a',
        messageSeq: 2,
        role: 'assistant',
        status: 'complete',
      }),
    )
    platform.emit('agent', ev({ type: 'turn_end', reason: 'completed' }))
    frames.run()
    await settle()
    await settle()
    const live = store.getState().sessions['n']!
    expect(live.turn).toBeNull()
    expect(live.outbox).toBeNull()
    expect(live.ended).toBeNull()
    expect(store.getState().running).toEqual({})
    expect(
      client.getQueryData<Conversation>(keys.conversation('n'))!.messages.map((m) => m.id),
    ).toEqual(['u', 'a'])
  })

  it('a turn that fails keeps why, to be shown once', async () => {
    const { platform, frames, store } = setup()
    await settle()
    store.getState().open('a')
    const ev = events('a', 't1')
    platform.emit('agent', ev({ type: 'turn_start', model: 'm', provider: 'p' }))
    platform.emit(
      'agent',
      ev({
        type: 'turn_end',
        reason: 'error',
        error: { code: 'network', message: 'The host is unreachable.' },
      }),
    )
    // (the events arrive while the session is being attached: they are kept, then applied)
    frames.run()
    await settle()
    expect(store.getState().sessions['a']!.ended).toMatchObject({
      reason: 'error',
      message: 'The host is unreachable.',
    })
  })
})

describe('typing while the first message of a new chat is sent', () => {
  it('keeps what was typed when the chat becomes its session, even if its events came first', async () => {
    let answer!: (v: { sessionId: string; turnId: string }) => void
    const { platform, frames, store } = setup({
      'chat.send': () => new Promise((r) => (answer = r)),
    })
    await settle()
    const sending = store.getState().send('First')
    store.getState().setDraft('Second, typed meanwhile')
    // the turn's first events arrive before the answer to chat.send
    const ev = events('n', 't1')
    platform.emit('agent', ev({ type: 'turn_start', model: 'm', provider: 'p' }))
    frames.run()
    answer({ sessionId: 'n', turnId: 't1' })
    await sending
    expect(store.getState().currentId).toBe('n')
    expect(store.getState().sessions['n']).toMatchObject({
      draft: 'Second, typed meanwhile',
      outbox: { text: 'First', turnId: 't1' },
    })
    expect(store.getState().sessions['n']!.turn?.turnId).toBe('t1')
  })

  it('takes a voice final with no composer on screen: one to edit fills its chat’s box, a new chat’s first opens it', async () => {
    const { platform, store } = setup()
    await settle()
    store.getState().setDraft('Note:')
    platform.emit('voice', {
      type: 'final',
      text: 'buy milk',
      disposition: 'composer',
      sessionId: null,
    })
    expect(store.getState().sessions[NEW_CHAT]?.draft).toBe('Note: buy milk')
    platform.emit('voice', { type: 'final', text: 'to b', disposition: 'composer', sessionId: 'b' })
    expect(store.getState().sessions['b']?.draft).toBe('to b')
    platform.emit('voice', {
      type: 'final',
      text: 'hello',
      disposition: 'sent',
      sessionId: 's1',
      turnId: 't1',
    })
    expect(store.getState().currentId).toBe('s1')
    // a chat on screen stays on screen
    platform.emit('voice', {
      type: 'final',
      text: 'again',
      disposition: 'sent',
      sessionId: 's2',
      turnId: 't2',
    })
    expect(store.getState().currentId).toBe('s1')
  })
})
