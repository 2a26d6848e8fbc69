/**
 * A resource attached with `@` travels with the message: `chat.send` reads it from the
 * real server-everything, the model's request carries its text under a line naming it,
 * the stored message keeps it (the next turn sends it again), and a resource that cannot
 * be read keeps the message from being sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppEvent } from '../../src-preload/contract/app-events'
import type { Result, RouteOutputs } from '../../src-preload/contract/routes'
import type { AppHost } from '../../src-main/services/host/app-host'
import { openChatHost } from '../support/host'
import { textReply, toolCallsReply, type ScriptedServer } from '../support/openai-server'
import { EVERYTHING } from '../support/mcp'

let dir: string
let host: AppHost
let server: ScriptedServer
let stop: () => Promise<void>
const events: AppEvent[] = []

beforeEach(async () => {
  events.length = 0
  ;({ dir, host, server, stop } = await openChatHost({
    prefix: 'cairn-attach-',
    hostKind: 'web',
    bridge: false,
    models: ['m'],
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
  }))
  host.hub.subscribe((e) => void events.push(e))
  // the server starts in the background: wait until it says it is ready
  for (;;) {
    const list = await call('mcp.list', {})
    const state = list.servers.find((x) => x.name === 'everything')?.state
    if (state === 'ready') break
    if (state === 'error') throw new Error('server-everything did not start')
    await new Promise((r) => setTimeout(r, 50))
  }
})
afterEach(() => stop())

async function call<R extends keyof RouteOutputs>(
  route: R,
  input: unknown,
): Promise<RouteOutputs[R]> {
  const r = (await host.router.handle(route, input)) as Result<RouteOutputs[R]>
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.data
}

/** sends "Look" with the everything server's text template filled with `resourceId` */
function sendLookWithText(resourceId: string): Promise<RouteOutputs['chat.send']> {
  return call('chat.send', {
    text: 'Look',
    workspace: dir,
    attachments: [
      {
        server: 'everything',
        uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
        values: { resourceId },
      },
    ],
  })
}

function ended(turnId: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      const done = events.some(
        (x) => x.event === 'agent' && x.payload.turnId === turnId && x.payload.type === 'turn_end',
      )
      if (done) resolve()
      else setTimeout(check, 10)
    }
    check()
  })
}

type Body = { messages: { role: string; content: unknown }[] }
const userTexts = (i: number): string[] =>
  (server.requests[i]?.body as Body).messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))

describe('attaching a resource', () => {
  it('the model gets its text, and the stored message keeps it for later turns', async () => {
    const listed = await call('mcp.resources', {})
    const doc = listed.resources.find((r) => r.name === 'instructions.md')
    expect(doc).toBeDefined()
    const read = await call('mcp.readResource', { server: 'everything', uri: doc!.uri })
    expect(read.parts.map((p) => p.type)).toEqual(['resource_link', 'resource'])
    server.enqueue(textReply('Read it.'), textReply('Still here.'))
    const sent = await call('chat.send', {
      text: 'Summarize this.',
      workspace: dir,
      attachments: [{ server: 'everything', uri: doc!.uri, name: doc!.name }],
    })
    await ended(sent.turnId)
    const [first] = userTexts(0)
    expect(first).toMatch(
      /^Summarize this\.\n\n\[Attached resource demo:\/\/resource\/static\/document\/instructions\.md \(text\/markdown\)\]\n/,
    )
    const { messages } = await call('sessions.get', { id: sent.sessionId })
    const stored = messages.find((m) => m.role === 'user')
    expect(stored?.content).toBe('Summarize this.')
    expect(stored?.parts?.[0]).toEqual({
      type: 'resource_link',
      uri: doc!.uri,
      name: 'instructions.md',
      mimeType: 'text/markdown',
    })
    // the next turn sends the attachment again, from the stored message
    const again = await call('chat.send', { sessionId: sent.sessionId, text: 'And?' })
    await ended(again.turnId)
    expect(userTexts(1)[0]).toBe(first)
  })

  it('a template filled with its value is read and sent', async () => {
    server.enqueue(textReply('ok'))
    const sent = await sendLookWithText('5')
    await ended(sent.turnId)
    expect(userTexts(0)[0]).toMatch(
      /\[Attached resource demo:\/\/resource\/dynamic\/text\/5 \(text\/plain\)\]\nResource 5: This is a plaintext resource/,
    )
  })

  it('a resource that cannot be read keeps the message unsent and says why', async () => {
    const r = (await host.router.handle('chat.send', {
      text: 'Look',
      workspace: dir,
      attachments: [{ server: 'everything', uri: 'demo://resource/dynamic/text/0' }],
    })) as Result<unknown>
    expect(r.ok).toBe(false)
    expect(!r.ok && r.error).toMatchObject({ code: 'unavailable' })
    expect(!r.ok && r.error.message).toMatch(/could not read demo:\/\/resource\/dynamic\/text\/0/)
    expect(server.requests).toHaveLength(0)
  })
})

describe("sending a server's prompt", () => {
  it('its messages go to the model as the user message, marked with the prompt they came from', async () => {
    server.enqueue(textReply('Sunny.'))
    const sent = await call('chat.send', {
      text: '/everything:args-prompt',
      workspace: dir,
      prompt: { server: 'everything', name: 'args-prompt', arguments: { city: 'Oslo' } },
    })
    await ended(sent.turnId)
    expect(userTexts(0)).toEqual(["What's weather in Oslo?"])
    const { messages } = await call('sessions.get', { id: sent.sessionId })
    const stored = messages.find((m) => m.role === 'user')
    expect(stored?.content).toBe("What's weather in Oslo?")
    expect(stored?.parts).toEqual([
      {
        type: 'resource_link',
        uri: 'mcp-prompt:everything/args-prompt',
        name: '/everything:args-prompt',
      },
    ])
  })

  it('a prompt the server refuses (a required argument missing) is not sent', async () => {
    const r = (await host.router.handle('chat.send', {
      text: '/everything:args-prompt',
      workspace: dir,
      prompt: { server: 'everything', name: 'args-prompt' },
    })) as Result<unknown>
    expect(!r.ok && r.error.message).toMatch(/could not give the prompt args-prompt/)
    expect(server.requests).toHaveLength(0)
  })
})

describe('a server saying its resources changed', () => {
  it('reaches the window as an mcp.listChanged event', async () => {
    await call('mcp.resources', {}) // listing subscribes to the listed resources
    await call('settings.update', { permissionPolicy: 'allow-all' })
    server.enqueue(
      toolCallsReply([{ name: 'everything__toggle-subscriber-updates', arguments: '{}' }]),
      textReply('Updates are on.'),
    )
    const sent = await call('chat.send', { text: 'turn on updates', workspace: dir })
    await ended(sent.turnId)
    await new Promise<void>((resolve) => {
      const check = (): void => {
        if (events.some((e) => e.event === 'mcp.listChanged')) resolve()
        else setTimeout(check, 20)
      }
      check()
    })
    expect(events.find((e) => e.event === 'mcp.listChanged')?.payload).toEqual({
      server: 'everything',
      what: 'resources',
    })
  })
})

describe('regenerating a message that carried a resource', () => {
  it('sends the resource again, as it was read the first time', async () => {
    server.enqueue(textReply('First.'), textReply('Second.'))
    const sent = await sendLookWithText('9')
    await ended(sent.turnId)
    const { messages } = await call('sessions.get', { id: sent.sessionId })
    const first = messages.find((m) => m.role === 'user')!
    const again = await call('chat.send', {
      sessionId: sent.sessionId,
      text: 'Look',
      replaces: first.id,
    })
    await ended(again.turnId)
    // the same text, timestamp included: the resource was not read again
    expect(userTexts(1)).toEqual(userTexts(0))
    expect(userTexts(1)[0]).toMatch(/\[Attached resource demo:\/\/resource\/dynamic\/text\/9/)
  })
})
