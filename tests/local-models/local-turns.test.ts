/**
 * The `local` provider through the routes, as a window uses it: the tiny real model runs in
 * its own runtime process (the built out/cli/local-runtime.js); a turn streams and reports
 * the runtime's own token counts, Stop cuts an answer, a session goes on, and a runtime
 * killed in the middle of an answer ends that turn with a clear error while the next turn
 * starts it again.
 */
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AgentEvent } from '../../src-preload/contract/events'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { openTestHost, type TestHost } from '../support/host'
import { TINY_MODEL, runtimeLauncher, writeTinySettings } from './support'

describe('local provider', () => {
  let t: TestHost
  let b: TestBridge
  beforeEach(async () => {
    t = await openTestHost({
      prefix: 'cairn-local-',
      beforeOpen: (dir) => writeTinySettings(join(dir, 'data')),
      localRuntimeLauncher: runtimeLauncher(),
    })
    b = t.b
  })
  afterEach(() => t.stop())

  const events = (turnId: string): AgentEvent[] =>
    b.events
      .filter((e) => e.event === 'agent' && (e.payload as AgentEvent).turnId === turnId)
      .map((e) => e.payload as AgentEvent)
  const end = (turnId: string, ms = 60_000) =>
    waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end', ms) as Promise<
      Extract<AgentEvent, { type: 'turn_end' }>
    >

  it('with no other provider, an added model is the default: a turn streams with real usage; the session goes on', async () => {
    const added = unwrap(await b.request('models.add', { path: TINY_MODEL }))
    expect(added.name).toBe('stories260K')
    const { sessionId, turnId } = unwrap(await b.request('chat.send', { text: 'Once upon a time' }))
    expect((await end(turnId)).reason).toBe('completed')
    const ev = events(turnId)
    expect(ev.find((e) => e.type === 'turn_start')).toMatchObject({
      model: 'stories260K',
      provider: 'local',
    })
    expect(ev.filter((e) => e.type === 'text_delta').length).toBeGreaterThan(3)
    const usage = ev.find((e) => e.type === 'usage') as Extract<AgentEvent, { type: 'usage' }>
    expect(usage.estimated).toBe(false)
    expect(usage.inputTokens).toBeGreaterThan(5)
    expect(usage.outputTokens).toBeGreaterThan(3)
    const session = unwrap(await b.request('sessions.get', { id: sessionId })).session
    expect(session).toMatchObject({ provider: 'local', model: 'stories260K' })

    const second = unwrap(await b.request('chat.send', { sessionId, text: 'The end.' }))
    expect((await end(second.turnId)).reason).toBe('completed')
    const usage2 = events(second.turnId).find((e) => e.type === 'usage') as Extract<
      AgentEvent,
      { type: 'usage' }
    >
    // the second request carries the first exchange too
    expect(usage2.inputTokens).toBeGreaterThan(usage.inputTokens)
  })

  it('Stop cuts the answer: what came is kept, marked stopped', async () => {
    unwrap(await b.request('models.add', { path: TINY_MODEL }))
    const { sessionId, turnId } = unwrap(await b.request('chat.send', { text: 'Once upon a time' }))
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'text_delta', 60_000)
    unwrap(await b.request('chat.stop', { turnId }))
    expect((await end(turnId)).reason).toBe('aborted')
    const messages = unwrap(await b.request('sessions.get', { id: sessionId })).messages
    const answer = messages.find((m) => m.role === 'assistant')
    expect(answer?.status).toBe('stopped')
    expect(answer?.content.length).toBeGreaterThan(0)
  })

  it('a runtime killed in the middle of an answer: that turn says so, the next one starts it again', async () => {
    unwrap(await b.request('models.add', { path: TINY_MODEL }))
    const { sessionId, turnId } = unwrap(await b.request('chat.send', { text: 'Once upon a time' }))
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'text_delta', 60_000)
    const { pid } = unwrap(await b.request('models.runtime', {}))
    expect(pid).toBeGreaterThan(0)
    process.kill(pid!, 'SIGKILL')
    const ended = await end(turnId)
    expect(ended.reason).toBe('error')
    expect(ended.error?.message).toMatch(
      /local model runtime stopped while answering \(it was ended by SIGKILL\).*Send again/,
    )

    const next = unwrap(await b.request('chat.send', { sessionId, text: 'Again' }))
    expect((await end(next.turnId)).reason).toBe('completed')
    const after = unwrap(await b.request('models.runtime', {}))
    expect(after.pid).not.toBe(pid)
  })

  it('with no model added, choosing local says how to add one', async () => {
    unwrap(await b.request('settings.update', { activeProviderId: 'local' }))
    const r = await b.request('chat.send', { text: 'hi' })
    const msg = r.ok ? (await end(r.data.turnId)).error?.message : r.error.message
    expect(msg).toMatch(/No local model has been added yet.*cairn models add/)
  })
})
