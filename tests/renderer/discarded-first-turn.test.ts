/**
 * A new chat whose first turn fails before any answer is not kept by the host: the window
 * goes back to the new chat, with the text in the box and the reason beside it.
 */
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import { createLiveStore, NEW_CHAT } from '../../src-renderer/src/state/live-store'
import { createTestPlatform, manualFrames, settle } from './support/test-platform'

const REFUSED = 'nothing is listening at http://127.0.0.1:8080 — is llama.cpp running?'

function events(sessionId: string, turnId: string) {
  let seq = 0
  return (e: Record<string, unknown>): SequencedAgentEvent =>
    ({ sessionId, turnId, at: 0, seq: seq++, ...e }) as SequencedAgentEvent
}

function setup(answer: () => Promise<{ sessionId: string; turnId: string }>) {
  const platform = createTestPlatform({ 'chat.send': answer })
  const frames = manualFrames()
  const opened: (string | null)[] = []
  const store = createLiveStore(platform, new QueryClient(), {
    scheduler: frames,
    onSession: (id) => opened.push(id),
  })
  return { platform, frames, store, opened }
}

function failFirstTurn(platform: ReturnType<typeof setup>['platform']): void {
  const ev = events('n', 't1')
  platform.emit('agent', ev({ type: 'turn_start', model: 'm', provider: 'p' }))
  platform.emit(
    'agent',
    ev({ type: 'message_saved', messageId: 'u', messageSeq: 1, role: 'user', status: 'complete' }),
  )
  platform.emit(
    'agent',
    ev({
      type: 'turn_end',
      reason: 'error',
      error: { code: 'network', message: REFUSED },
      discardedSession: { text: 'What is a cairn?' },
    }),
  )
}

describe('a first turn that failed before any answer', () => {
  it('puts the text back in the new chat’s box with the reason, and leaves the gone session', async () => {
    const { platform, frames, store, opened } = setup(async () => ({
      sessionId: 'n',
      turnId: 't1',
    }))
    await settle()
    expect(await store.getState().send('What is a cairn?')).toBe(true)
    expect(store.getState().currentId).toBe('n')
    failFirstTurn(platform)
    frames.run()
    await settle()
    expect(store.getState().currentId).toBeNull()
    expect(opened.at(-1)).toBeNull()
    expect(store.getState().sessions['n']).toBeUndefined()
    expect(store.getState().running['n']).toBeUndefined()
    expect(store.getState().sessions[NEW_CHAT]).toMatchObject({
      draft: 'What is a cairn?',
      sendError: { code: 'network', message: REFUSED },
      outbox: null,
    })
  })

  it('works too when the turn ended before the answer to chat.send arrived', async () => {
    let answer!: (v: { sessionId: string; turnId: string }) => void
    const { platform, frames, store } = setup(() => new Promise((r) => (answer = r)))
    await settle()
    const sending = store.getState().send('What is a cairn?')
    failFirstTurn(platform)
    frames.run()
    answer({ sessionId: 'n', turnId: 't1' })
    expect(await sending).toBe(false)
    expect(store.getState().currentId).toBeNull()
    expect(store.getState().sessions['n']).toBeUndefined()
    expect(store.getState().sessions[NEW_CHAT]).toMatchObject({
      draft: 'What is a cairn?',
      sendError: { code: 'network', message: REFUSED },
      outbox: null,
    })
  })
})
