/**
 * Compaction on request (`sessions.compact`) follows the session's assistant like a turn
 * does: its provider and its utility model write the summary.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unwrap, type TestBridge } from '../support/bridges'
import { openChatHost, storeLongSession } from '../support/host'
import {
  completionReply,
  startScriptedServer,
  type Reply,
  type ScriptedServer,
} from '../support/openai-server'

const summaryReply = (text: string): Reply => completionReply(text, { id: 's', model: 'small' })

let envServer: ScriptedServer
let other: ScriptedServer
let b: TestBridge
let stop: () => Promise<void>
let sessionId: string

beforeAll(async () => {
  other = await startScriptedServer({ models: ['big', 'small'] })
  ;({
    server: envServer,
    b,
    stop,
  } = await openChatHost({
    prefix: 'cairn-assistant-compact-',
    models: ['m'],
    beforeOpen: (dir) =>
      void (sessionId = storeLongSession(join(dir, 'data'), other.baseURL, 'big')),
  }))
})
afterAll(async () => {
  await stop()
  await other.close()
})

describe('compaction with an assistant', () => {
  it("writes the summary on the assistant's provider with its utility model", async () => {
    unwrap(
      await b.request('settings.update', {
        providers: [{ id: 'p2', name: 'Second', baseURL: other.baseURL }],
      }),
    )
    const a = unwrap(
      await b.request('assistants.create', {
        assistant: {
          name: 'Summarizer',
          providerId: 'p2',
          utilityModel: 'small',
          tools: { builtin: { mode: 'none', names: [] }, mcp: { servers: {}, others: 'none' } },
          limits: {},
        },
      }),
    )
    unwrap(await b.request('sessions.setAssistant', { id: sessionId, assistantId: a.id }))
    other.enqueue(summaryReply('Nine questions were answered.'))
    const done = unwrap(await b.request('sessions.compact', { id: sessionId }))
    expect(done).toMatchObject({ compacted: true, fallback: false })
    expect(envServer.requests).toHaveLength(0)
    expect(other.requests).toHaveLength(1)
    expect(other.requests[0]!.body).toMatchObject({ model: 'small', stream: false })
  })
})
