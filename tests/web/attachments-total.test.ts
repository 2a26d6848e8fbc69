/**
 * Issue 25, case 8: one user message keeps at most one image's worth of images (8 MB, base64)
 * and 200 000 characters of attached text, whatever carries them: one `@` resource holding
 * seven images just under the per-image cap, or several attachments together. What is left
 * out is said in the message, with its size. Through `chat.send` with the `hostile` MCP
 * server's image resources, the real store and the scripted model.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import type { Result, RouteOutputs } from '../../src-preload/contract/routes'
import type { AppHost } from '../../src-main/services/host/app-host'
import { openChatHost } from '../support/host'
import { fixture, nodeServer } from '../support/mcp'
import { textReply, type ScriptedServer } from '../support/openai-server'

let host: AppHost
let server: ScriptedServer
let stop: () => Promise<void>

beforeEach(async () => {
  ;({ host, server, stop } = await openChatHost({
    prefix: 'cairn-attach-total-',
    hostKind: 'web',
    bridge: false,
    models: ['m'],
    mcpServers: { pics: nodeServer(fixture('hostile.mjs'), ['image-resources', '7']) },
  }))
  for (;;) {
    const state = (await call('mcp.list', {})).servers.find((x) => x.name === 'pics')?.state
    if (state === 'ready') break
    if (state === 'error') throw new Error('the hostile server did not start')
    await new Promise((r) => setTimeout(r, 50))
  }
}, 30_000)
afterEach(() => stop())

async function call<R extends keyof RouteOutputs>(
  route: R,
  input: unknown,
): Promise<RouteOutputs[R]> {
  const r = (await host.router.handle(route, input)) as Result<RouteOutputs[R]>
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.data
}

async function sent(attachments: { server: string; uri: string }[]): Promise<StoredMessage> {
  server.enqueue(textReply('Seen.'))
  const { sessionId } = await call('chat.send', { text: 'Look at these', attachments })
  for (;;) {
    const s = await call('sessions.get', { id: sessionId })
    const user = s.messages.find((m) => m.role === 'user')
    if (user && s.messages.some((m) => m.role === 'assistant')) return user
    await new Promise((r) => setTimeout(r, 50))
  }
}

const images = (m: StoredMessage) => (m.parts ?? []).filter((p) => p.type === 'image')
const notes = (m: StoredMessage) =>
  (m.parts ?? []).flatMap((p) => (p.type === 'text' ? [p.text] : [])).join('\n')

describe('the attachments of one message', () => {
  it('one resource of seven 7.9 MB images keeps one, and says the rest were left out', async () => {
    const user = await sent([{ server: 'pics', uri: 'pics://many' }])
    expect(images(user)).toHaveLength(1)
    expect(JSON.stringify(user).length).toBeLessThan(9 * 1024 * 1024)
    expect(notes(user)).toMatch(/6 images \(about 37 MB\) .*left out/)
    // the model is told too
    const body = JSON.stringify(server.requests.at(-1)?.body)
    expect(body).toMatch(/6 images \(about 37 MB\)/)
  }, 60_000)

  it('the total is shared by the attachments of a message', async () => {
    const user = await sent([
      { server: 'pics', uri: 'pics://one' },
      { server: 'pics', uri: 'pics://one' },
    ])
    expect(images(user)).toHaveLength(1)
    expect(notes(user)).toMatch(/1 image \(about 6 MB\) .*left out/)
  }, 60_000)
})
