/**
 * The window's meter shows the context window the chat's last answer really had (here: a
 * window the provider's settings give the model), not the settings' default.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { openChatHost } from '../support/host'
import { textReply, type ScriptedServer } from '../support/openai-server'

describe("the chat's context window", () => {
  let server: ScriptedServer
  let b: TestBridge
  let stop: () => Promise<void>

  beforeAll(async () => {
    ;({ server, b, stop } = await openChatHost({
      prefix: 'cairn-session-window-',
      models: ['m'],
      provider: { name: 'Scripted', defaultModel: 'm', contextWindows: { m: 12_345 } },
    }))
  })
  afterAll(() => stop())

  it("is the window the last answer had (a window the provider's settings give the model)", async () => {
    server.enqueue(textReply('Hello.'))
    const { sessionId, turnId } = unwrap(await b.request('chat.send', { text: 'hi' }))
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    const after = unwrap(await b.request('sessions.context', { id: sessionId }))
    expect(after.windowTokens).toBe(12_345)
    expect(after.windowSource).toContain("provider's settings for m")
  })
})
