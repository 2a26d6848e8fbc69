/**
 * The window's meter shows the context window the chat's last answer really had (here: a
 * window the provider's settings give the model), not the settings' default.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppHost, type AppHost } from '../../src-main/services/app-host'
import { ipcBridge, unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { startScriptedServer, textReply, type ScriptedServer } from '../support/openai-server'

describe("the chat's context window", () => {
  let server: ScriptedServer
  let host: AppHost
  let b: TestBridge
  let dir: string

  beforeAll(async () => {
    server = await startScriptedServer({ models: ['m'] })
    dir = mkdtempSync(join(tmpdir(), 'cairn-session-window-'))
    host = await createAppHost({
      dataDir: join(dir, 'data'),
      hostKind: 'electron',
      version: 't',
      env: { CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' },
    })
    b = ipcBridge(host)
    unwrap(
      await b.request('settings.update', {
        providers: [
          {
            id: 'p',
            name: 'Scripted',
            baseURL: server.baseURL,
            defaultModel: 'm',
            contextWindows: { m: 12_345 },
          },
        ],
        activeProviderId: 'p',
      }),
    )
  })
  afterAll(async () => {
    await b.close()
    await host.shutdown()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it("is the window the last answer had (a window the provider's settings give the model)", async () => {
    server.enqueue(textReply('Hello.'))
    const { sessionId, turnId } = unwrap(await b.request('chat.send', { text: 'hi' }))
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    const after = unwrap(await b.request('sessions.context', { id: sessionId }))
    expect(after.windowTokens).toBe(12_345)
    expect(after.windowSource).toContain("provider's settings for m")
  })
})
