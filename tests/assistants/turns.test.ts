/**
 * Assistants in turns, through the contract (the desktop app's IPC) with the real openai SDK
 * against the scripted server and a real MCP server: what the model is offered, what a call
 * to a tool the assistant does not allow gets, switching a session's assistant, and a
 * session whose assistant was deleted.
 */
import { writeFileSync, mkdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { AssistantDraft } from '../../src-preload/contract/assistants'
import type { AppHost } from '../../src-main/services/host/app-host'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { openChatHost } from '../support/host'
import { fixture, waitFor } from '../support/mcp'
import {
  startScriptedServer,
  textReply,
  toolCallsReply,
  type RecordedRequest,
  type ScriptedServer,
} from '../support/openai-server'

let workspace: string
let server: ScriptedServer
let host: AppHost
let b: TestBridge
let stop: () => Promise<void>
let ready = false

beforeAll(async () => {
  ;({ server, host, b, stop } = await openChatHost({
    prefix: 'cairn-assistant-turns-',
    models: ['m', 'other'],
    mcpServers: { echo: { command: process.execPath, args: [fixture('echo-server.mjs')] } },
    beforeOpen: (dir) => {
      workspace = join(dir, 'ws')
      mkdirSync(workspace)
      writeFileSync(join(workspace, 'notes.txt'), 'granite and basalt')
    },
  }))
  ready = unwrap(await b.request('mcp.list', {})).servers[0]?.state === 'ready'
  const onStatus = (info: { state: string }): void => void (ready ||= info.state === 'ready')
  b.on('mcp.status', onStatus)
  await waitFor(() => host !== undefined && ready, 30_000, 'the echo server')
}, 60_000)

afterAll(() => stop())

beforeEach(() => {
  server.requests.length = 0
})

const draft = (name: string, over: Partial<AssistantDraft> = {}): AssistantDraft => ({
  name,
  tools: { builtin: { mode: 'none', names: [] }, mcp: { servers: {}, others: 'none' } },
  limits: {},
  ...over,
})

const toolNames = (req: RecordedRequest | undefined): string[] | undefined =>
  (req?.body.tools as { function: { name: string } }[] | undefined)?.map((t) => t.function.name)

async function send(input: {
  text: string
  sessionId?: string
  assistantId?: string
  workspace?: string
}): Promise<string> {
  const { sessionId, turnId } = unwrap(await b.request('chat.send', input))
  const end = await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
  expect(end).toMatchObject({ type: 'turn_end' })
  return sessionId
}

const byName = async (name: string) =>
  unwrap(await b.request('assistants.list', {})).assistants.find((a) => a.name === name)!

describe('assistants in turns', () => {
  it('an assistant that may use one tool: the model is offered exactly that tool, as the preview says', async () => {
    const only = draft('Only echo', {
      tools: {
        builtin: { mode: 'none', names: [] },
        mcp: { servers: { echo: { mode: 'some', names: ['echo'] } }, others: 'none' },
      },
    })
    const a = unwrap(await b.request('assistants.create', { assistant: only }))
    const preview = unwrap(await b.request('assistants.previewTools', { assistant: only }))
    expect(preview.tools).toMatchObject([{ name: 'echo__echo', server: 'echo', readOnly: false }])
    expect(preview).toMatchObject({ findTools: false, missing: [] })

    server.enqueue(textReply('Hello.'))
    const sessionId = await send({ text: 'hi', assistantId: a.id })
    expect(toolNames(server.requests[0])).toEqual(['echo__echo'])
    const session = unwrap(await b.request('sessions.get', { id: sessionId })).session
    expect(session.assistant).toEqual({ id: a.id, name: 'Only echo' })
  })

  it('the default assistant offers every tool, as Cairn did before assistants', async () => {
    server.enqueue(textReply('Hello.'))
    await send({ text: 'hi' })
    const names = toolNames(server.requests[0])!
    expect(names).toEqual(expect.arrayContaining(['read_file', 'run_command', 'echo__echo']))
  })

  it('a call to a tool the assistant does not allow is answered unknown_tool, and nothing runs', async () => {
    const a = unwrap(
      await b.request('assistants.create', {
        assistant: draft('Echo only 2', {
          permissionPolicy: 'allow-all',
          tools: {
            builtin: { mode: 'none', names: [] },
            mcp: { servers: { echo: { mode: 'some', names: ['echo'] } }, others: 'none' },
          },
        }),
      }),
    )
    server.enqueue(
      toolCallsReply([
        { id: 'c1', name: 'read_file', arguments: JSON.stringify({ path: 'notes.txt' }) },
        { id: 'c2', name: 'echo__add', arguments: JSON.stringify({ a: 1, b: 2 }) },
      ]),
      textReply('Done.'),
    )
    const sessionId = await send({ text: 'read it', assistantId: a.id, workspace })
    const { messages } = unwrap(await b.request('sessions.get', { id: sessionId }))
    const results = messages.filter((m) => m.role === 'tool')
    expect(results.map((m) => [m.toolCallId, m.failureKind])).toEqual([
      ['c1', 'unknown_tool'],
      ['c2', 'unknown_tool'],
    ])
    expect(results[0]!.content).not.toContain('granite')
    expect(toolNames(server.requests[1])).toEqual(['echo__echo'])
  })

  it('"Chat" sends no tools at all', async () => {
    const chat = await byName('Chat')
    server.enqueue(textReply('Hi.'))
    await send({ text: 'hello', assistantId: chat.id })
    expect(server.requests[0]!.body).not.toHaveProperty('tools')
  })

  it('"Files" offers the five file tools only and runs a read without asking', async () => {
    const files = await byName('Files')
    server.enqueue(
      toolCallsReply([
        { id: 'r1', name: 'read_file', arguments: JSON.stringify({ path: 'notes.txt' }) },
      ]),
      textReply('It says granite.'),
    )
    const sessionId = await send({ text: 'read notes', assistantId: files.id, workspace })
    expect(toolNames(server.requests[0])!.sort()).toEqual(
      ['edit_file', 'list_directory', 'read_file', 'search_files', 'write_file'].sort(),
    )
    const asked = b.events.filter(
      (e) => e.event === 'agent' && e.payload.type === 'permission_request',
    )
    expect(asked).toEqual([])
    const { messages } = unwrap(await b.request('sessions.get', { id: sessionId }))
    const result = messages.find((m) => m.role === 'tool')!
    expect(result).toMatchObject({ decidedBy: 'policy', failureKind: null })
    expect(result.content).toContain('granite and basalt')
  })

  it('the assistant sets the prompt, model and temperature of the request', async () => {
    const a = unwrap(
      await b.request('assistants.create', {
        assistant: draft('Terse', {
          systemPrompt: 'ANSWER-TERSELY',
          model: 'other',
          temperature: 0.2,
        }),
      }),
    )
    server.enqueue(textReply('Ok.'))
    await send({ text: 'hi', assistantId: a.id })
    const body = server.requests[0]!.body
    expect(body.model).toBe('other')
    expect(body.temperature).toBe(0.2)
    expect(body.messages[0]).toMatchObject({ role: 'system' })
    expect(String(body.messages[0].content)).toContain('ANSWER-TERSELY')
  })

  it("a session's assistant changed during a turn applies from its next turn", async () => {
    const echo = unwrap(
      await b.request('assistants.create', {
        assistant: draft('Echoer', {
          permissionPolicy: 'allow-all',
          tools: {
            builtin: { mode: 'none', names: [] },
            mcp: { servers: { echo: { mode: 'some', names: ['echo'] } }, others: 'none' },
          },
        }),
      }),
    )
    const chat = await byName('Chat')
    let sessionId = ''
    server.enqueue(async () => {
      // the user picks another assistant while the turn runs
      const r = unwrap(
        await b.request('sessions.setAssistant', { id: sessionId, assistantId: chat.id }),
      )
      expect(r.assistant).toEqual({ id: chat.id, name: 'Chat' })
      return toolCallsReply([
        { id: 'e1', name: 'echo__echo', arguments: JSON.stringify({ message: 'x' }) },
      ])
    }, textReply('Echoed.'))
    const first = unwrap(await b.request('chat.send', { text: 'echo x', assistantId: echo.id }))
    sessionId = first.sessionId
    await waitForEvent(b, 'agent', (e) => e.turnId === first.turnId && e.type === 'turn_end')
    // the running turn kept its assistant: its second request still offers echo, and echo ran
    expect(toolNames(server.requests[1])).toEqual(['echo__echo'])
    const { messages } = unwrap(await b.request('sessions.get', { id: sessionId }))
    expect(messages.find((m) => m.role === 'tool')).toMatchObject({
      content: 'Echo: x',
      failureKind: null,
    })

    server.enqueue(textReply('No tools now.'))
    await send({ text: 'again', sessionId })
    expect(server.requests[2]!.body).not.toHaveProperty('tools')
  })

  it('a session goes on with its copy of an assistant that was deleted', async () => {
    const a = unwrap(
      await b.request('assistants.create', {
        assistant: draft('Ephemeral', { systemPrompt: 'EPHEMERAL-PROMPT' }),
      }),
    )
    server.enqueue(textReply('One.'))
    const sessionId = await send({ text: 'one', assistantId: a.id })
    expect(unwrap(await b.request('assistants.delete', { id: a.id }))).toEqual({ deleted: true })
    server.enqueue(textReply('Two.'))
    await send({ text: 'two', sessionId })
    expect(String(server.requests[1]!.body.messages[0].content)).toContain('EPHEMERAL-PROMPT')
    expect(server.requests[1]!.body).not.toHaveProperty('tools')
    const session = unwrap(await b.request('sessions.get', { id: sessionId })).session
    expect(session.assistant).toEqual({ id: a.id, name: 'Ephemeral', deleted: true })
  })

  it('find_tools searches only the tools the assistant allows', async () => {
    unwrap(await b.request('settings.update', { limits: { maxToolsOffered: 2 } }))
    try {
      const a = unwrap(
        await b.request('assistants.create', {
          assistant: draft('Few echo tools', {
            tools: {
              builtin: { mode: 'none', names: [] },
              mcp: {
                servers: { echo: { mode: 'some', names: ['echo', 'add', 'error'] } },
                others: 'none',
              },
            },
          }),
        }),
      )
      server.enqueue(
        toolCallsReply([
          { id: 'f1', name: 'find_tools', arguments: JSON.stringify({ query: 'image' }) },
          { id: 'f2', name: 'find_tools', arguments: JSON.stringify({ query: 'adds numbers' }) },
        ]),
        textReply('Found.'),
      )
      const sessionId = await send({ text: 'find', assistantId: a.id })
      expect(toolNames(server.requests[0])).toEqual(['find_tools'])
      const { messages } = unwrap(await b.request('sessions.get', { id: sessionId }))
      const [image, add] = messages.filter((m) => m.role === 'tool')
      expect(image!.content).toMatch(/No tool matches "image" among the 3 connected tools/)
      expect(add!.content).toContain('echo__add')
    } finally {
      unwrap(await b.request('settings.update', { limits: { maxToolsOffered: 40 } }))
    }
  })

  it("the assistant's provider comes before the environment's endpoint, with its own stored key", async () => {
    const other = await startScriptedServer({ models: ['far'] })
    try {
      unwrap(
        await b.request('settings.update', {
          providers: [{ id: 'p2', name: 'Second', baseURL: other.baseURL }],
          apiKeys: { p2: 'sk-second-provider' },
        }),
      )
      const a = unwrap(
        await b.request('assistants.create', {
          assistant: draft('Elsewhere', { providerId: 'p2', model: 'far' }),
        }),
      )
      other.enqueue(textReply('From afar.'))
      const sessionId = await send({ text: 'hi', assistantId: a.id })
      expect(server.requests).toHaveLength(0)
      expect(other.requests).toHaveLength(1)
      expect(other.requests[0]!.body.model).toBe('far')
      expect(other.requests[0]!.headers['authorization']).toBe('Bearer sk-second-provider')
      const session = unwrap(await b.request('sessions.get', { id: sessionId })).session
      expect(session).toMatchObject({ provider: other.baseURL, model: 'far' })
    } finally {
      await other.close()
    }
  })

  it('an assistant whose provider is gone from the settings says so and uses the configured one', async () => {
    const a = unwrap(
      await b.request('assistants.create', {
        assistant: draft('Lost provider', { providerId: 'gone' }),
      }),
    )
    server.enqueue(textReply('Still here.'))
    const { turnId } = unwrap(await b.request('chat.send', { text: 'hi', assistantId: a.id }))
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    expect(server.requests).toHaveLength(1)
    const notices = b.events.flatMap((e) =>
      e.event === 'agent' && e.payload.turnId === turnId && e.payload.type === 'notice'
        ? [e.payload.message]
        : [],
    )
    expect(notices).toContainEqual(
      expect.stringContaining('names the provider "gone", which the settings do not have'),
    )
  })

  it("the assistant's limits bound the turn", async () => {
    const a = unwrap(
      await b.request('assistants.create', {
        assistant: draft('One step', {
          permissionPolicy: 'allow-all',
          limits: { maxIterations: 1 },
          tools: {
            builtin: { mode: 'none', names: [] },
            mcp: { servers: { echo: { mode: 'all', names: [] } }, others: 'none' },
          },
        }),
      }),
    )
    server.enqueue(
      toolCallsReply([
        { id: 'o1', name: 'echo__echo', arguments: JSON.stringify({ message: 'x' }) },
      ]),
    )
    const { turnId } = unwrap(await b.request('chat.send', { text: 'go', assistantId: a.id }))
    const end = await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    expect(end).toMatchObject({ reason: 'max_iterations' })
    expect(server.requests).toHaveLength(1)
  })

  it('switching a session to an assistant that names a model and a folder takes them', async () => {
    server.enqueue(textReply('One.'))
    const sessionId = await send({ text: 'one' })
    const a = unwrap(
      await b.request('assistants.create', {
        assistant: draft('Other model', { model: 'other', workspace }),
      }),
    )
    const switched = unwrap(
      await b.request('sessions.setAssistant', { id: sessionId, assistantId: a.id }),
    )
    expect(switched).toMatchObject({
      model: 'other',
      workspace,
      assistant: { id: a.id, name: 'Other model' },
    })
    server.enqueue(textReply('Two.'))
    await send({ text: 'two', sessionId })
    expect(server.requests[1]!.body.model).toBe('other')
  })

  it('an unknown assistant is refused before anything runs', async () => {
    const r = await b.request('chat.send', { text: 'hi', assistantId: 'no-such-assistant' })
    expect(r).toMatchObject({ ok: false, error: { code: 'no_assistant' } })
    expect(server.requests).toHaveLength(0)
  })
})
