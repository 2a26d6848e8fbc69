import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import { unwrap, type TestBridge } from '../support/bridges'
import { openChatHost, storeLongSession } from '../support/host'
import { completionReply, type Reply, type ScriptedServer } from '../support/openai-server'

const summaryReply = (text: string): Reply => completionReply(text, { id: 's', model: 'm' })

describe('the context routes: compact, undo, pin, size', () => {
  let server: ScriptedServer
  let b: TestBridge
  let stop: () => Promise<void>
  let sessionId: string

  beforeAll(async () => {
    ;({ server, b, stop } = await openChatHost({
      prefix: 'cairn-context-routes-',
      models: ['m'],
      // a session stored by an earlier run
      beforeOpen: (dir, scripted) =>
        void (sessionId = storeLongSession(join(dir, 'data'), scripted.baseURL, 'm')),
    }))
  })
  afterAll(() => stop())

  const messages = async (): Promise<StoredMessage[]> =>
    unwrap(await b.request('sessions.get', { id: sessionId })).messages

  it('pins a message, compacts on request around it, and undoes the compaction', async () => {
    const before = await messages()
    const size = unwrap(await b.request('sessions.context', { id: sessionId }))
    expect(size.estimatedTokens).toBeGreaterThan(900)
    expect(size.compactAtPercent).toBe(70)

    const target = before.find((m) => m.content.startsWith('answer 2 '))!
    const pinned = unwrap(
      await b.request('messages.pin', { sessionId, messageId: target.id, pinned: true }),
    )
    expect(pinned.pinned).toBe(true)

    server.enqueue(summaryReply('Questions 0 to 3 were answered.'))
    const done = unwrap(await b.request('sessions.compact', { id: sessionId }))
    expect(done).toMatchObject({ compacted: true, fallback: false, coveredFrom: 2 })
    expect(done.tokensAfter).toBeLessThan(done.tokensBefore)
    const call = server.requests.at(-1)!.body as { stream: boolean; messages: unknown[] }
    expect(call.stream).toBe(false)
    expect(JSON.stringify(call.messages)).not.toContain('answer 2 ')
    const after = unwrap(await b.request('sessions.context', { id: sessionId }))
    expect(after.estimatedTokens).toBe(done.tokensAfter)

    const stored = await messages()
    expect(
      JSON.stringify(stored.slice(0, before.length).map((m) => ({ ...m, pinned: false }))),
    ).toBe(JSON.stringify(before))
    const summary = stored.at(-1)!
    expect(summary).toMatchObject({ kind: 'summary', id: done.summaryId })

    expect(
      unwrap(await b.request('sessions.undoCompaction', { id: sessionId, summaryId: target.id })),
    ).toEqual({ removed: false })
    expect(
      unwrap(await b.request('sessions.undoCompaction', { id: sessionId, summaryId: summary.id })),
    ).toEqual({ removed: true })
    expect(unwrap(await b.request('sessions.context', { id: sessionId })).estimatedTokens).toBe(
      done.tokensBefore,
    )
  })

  it('says what is wrong with an unknown session or message', async () => {
    const missing = await b.request('messages.pin', {
      sessionId,
      messageId: 'no-such-message',
      pinned: true,
    })
    expect(missing).toMatchObject({ ok: false, error: { code: 'not_found' } })
    const noSession = await b.request('sessions.compact', { id: 'no-such-session' })
    expect(noSession).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })
})
