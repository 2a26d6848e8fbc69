/**
 * Compaction on request (`sessions.compact`) follows the session's assistant like a turn
 * does: its provider and its utility model write the summary.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { createAppHost, type AppHost } from '../../src-main/services/app-host'
import { ipcBridge, unwrap, type TestBridge } from '../support/bridges'
import { startScriptedServer, type Reply, type ScriptedServer } from '../support/openai-server'

const summaryReply = (text: string): Reply => ({
  type: 'http',
  status: 200,
  body: {
    id: 's',
    object: 'chat.completion',
    created: 1,
    model: 'small',
    choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
  },
})

let envServer: ScriptedServer
let other: ScriptedServer
let host: AppHost
let b: TestBridge
let dir: string
let sessionId: string

beforeAll(async () => {
  envServer = await startScriptedServer({ models: ['m'] })
  other = await startScriptedServer({ models: ['big', 'small'] })
  dir = mkdtempSync(join(tmpdir(), 'cairn-assistant-compact-'))
  const store = createSessionStore(join(dir, 'data'))
  const s = store.createSession({ provider: other.baseURL, model: 'big' })
  sessionId = s.id
  for (let i = 0; i < 9; i++) {
    store.appendMessage(s.id, { role: 'user', content: `question ${i}` })
    store.appendMessage(s.id, { role: 'assistant', content: `answer ${i} ${'a'.repeat(400)}` })
  }
  store.close()
  host = await createAppHost({
    dataDir: join(dir, 'data'),
    hostKind: 'electron',
    version: 't',
    env: {
      CAIRN_BASE_URL: envServer.baseURL,
      CAIRN_MODEL: 'm',
      CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
    },
  })
  b = ipcBridge(host)
})
afterAll(async () => {
  await b.close()
  await host.shutdown()
  await envServer.close()
  await other.close()
  rmSync(dir, { recursive: true, force: true })
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
