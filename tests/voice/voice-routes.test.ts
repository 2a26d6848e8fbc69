/**
 * Voice input through the routes of a UI host: the scripted STT server as a configured MCP
 * server, the real turn manager and the scripted OpenAI-compatible server.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { VoiceEvent } from '../../src-preload/contract/voice'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { ipcBridge, unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { waitFor } from '../support/mcp'
import {
  httpError,
  startScriptedServer,
  textReply,
  type RecordedRequest,
  type ScriptedServer,
} from '../support/openai-server'
import { sttServer, type SttScript, type SttServer } from '../support/stt'

let server: ScriptedServer
let host: AppHost | null
let b: TestBridge
let dir: string

beforeEach(async () => {
  server = await startScriptedServer({ models: ['m'] })
  dir = mkdtempSync(join(tmpdir(), 'cairn-voice-routes-'))
  host = null
})
afterEach(async () => {
  await b?.close()
  await host?.shutdown()
  await server.close()
  rmSync(dir, { recursive: true, force: true })
})

async function open(servers: Record<string, SttServer>): Promise<void> {
  const config = join(dir, 'mcp.json')
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: Object.fromEntries(Object.entries(servers).map(([n, s]) => [n, s.config])),
    }),
  )
  host = await createAppHost({
    dataDir: join(dir, 'data'),
    hostKind: 'web',
    version: 't',
    mcpConfigFile: config,
    env: {
      CAIRN_BASE_URL: server.baseURL,
      CAIRN_MODEL: 'm',
      CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
    },
  })
  b = ipcBridge(host)
}

const voiceEvents = (): VoiceEvent[] =>
  b.events.flatMap((e) => (e.event === 'voice' ? [e.payload] : []))
const userTexts = async (sessionId: string): Promise<string[]> =>
  unwrap(await b.request('sessions.get', { id: sessionId }))
    .messages.filter((m) => m.role === 'user')
    .map((m) => m.content ?? '')
const toolNames = (req: RecordedRequest): string[] =>
  ((req.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
    (t) => t.function.name,
  )

const script = (steps: SttScript['steps']): SttServer => sttServer(dir, { steps })

describe('voice input through the routes', () => {
  it('sends two spoken sentences as two turns of a new chat, in order, never offering the STT tools', async () => {
    const stt = script([
      { partial: 'What is' },
      { final: 'What is a cairn?' },
      { waitPolls: 1 },
      { partial: 'Who' },
      { final: 'Who builds them?' },
    ])
    await open({ stt })
    server.enqueue(textReply('A pile of stones.'), textReply('Walkers do.'))
    const started = unwrap(await b.request('voice.start', { source: 'microphone' }))
    expect(started).toMatchObject({ listening: true, server: 'stt', sessionId: null })
    const second = await waitForEvent(
      b,
      'voice',
      (e) => e.type === 'final' && e.disposition === 'sent' && e.text === 'Who builds them?',
    )
    const sessionId = (second as { sessionId: string }).sessionId
    await waitForEvent(
      b,
      'agent',
      (e) => e.type === 'turn_end' && e.sessionId === sessionId && server.requests.length === 2,
    )
    await waitFor(() => server.requests.length === 2, 10_000, 'two requests')
    expect(await userTexts(sessionId)).toEqual(['What is a cairn?', 'Who builds them?'])
    // the second may come while the first turn runs: queued, then sent after it
    const finals = voiceEvents().flatMap((e) => (e.type === 'final' ? [e] : []))
    expect(finals.filter((e) => e.disposition === 'sent').map((e) => e.text)).toEqual([
      'What is a cairn?',
      'Who builds them?',
    ])
    expect(finals.filter((e) => e.disposition === 'queued').length).toBeLessThanOrEqual(1)
    expect(
      voiceEvents()
        .filter((e) => e.type === 'partial')
        .map((e) => e.text),
    ).toEqual(['What is', 'Who'])
    for (const req of server.requests) {
      expect(toolNames(req).length).toBeGreaterThan(0)
      expect(toolNames(req).filter((n) => n.includes('stt_'))).toEqual([])
    }
    expect(unwrap(await b.request('voice.status', {}))).toMatchObject({
      listening: true,
      sessionId,
    })
    expect(unwrap(await b.request('voice.stop', {})).listening).toBe(false)
    expect(stt.calls().filter((c) => c.call === 'stop')).toHaveLength(1)
  })

  it('queues finals while a turn runs; Stop clears the queue', async () => {
    const stt = script([{ final: 'One.' }, { final: 'Two.' }, { final: 'Three.' }])
    await open({ stt })
    let release!: () => void
    const held = new Promise<void>((r) => (release = r))
    server.enqueue(async () => {
      await held
      return textReply('late')
    })
    unwrap(await b.request('voice.start', {}))
    const first = await waitForEvent(
      b,
      'voice',
      (e) => e.type === 'final' && e.disposition === 'sent',
    )
    await waitForEvent(
      b,
      'voice',
      (e) => e.type === 'status' && e.status.queued.join(' ') === 'Two. Three.',
    )
    expect(
      voiceEvents().flatMap((e) =>
        e.type === 'final' && e.disposition === 'queued' ? [e.text] : [],
      ),
    ).toEqual(['Two.', 'Three.'])
    const { turnId, sessionId } = first as { turnId: string; sessionId: string }
    unwrap(await b.request('chat.stop', { turnId }))
    await waitForEvent(b, 'voice', (e) => e.type === 'status' && e.status.queued.length === 0)
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    release()
    // nothing that was queued is sent after the stopped turn
    await new Promise((r) => setTimeout(r, 500))
    const asked = JSON.stringify(server.requests.map((r) => r.body as unknown))
    expect(asked).not.toContain('Two.')
    expect(asked).not.toContain('Three.')
    expect(await userTexts(sessionId)).toEqual(['One.'])
    expect(unwrap(await b.request('voice.status', {}))).toMatchObject({
      listening: true,
      queued: [],
    })
  })

  it('a deleted chat ends voice mode for it, closing the session on the server', async () => {
    const stt = script([{ final: 'Hello.' }])
    await open({ stt })
    server.enqueue(textReply('Hi.'))
    unwrap(await b.request('voice.start', {}))
    const sent = await waitForEvent(
      b,
      'voice',
      (e) => e.type === 'final' && e.disposition === 'sent',
    )
    const { sessionId, turnId } = sent as { sessionId: string; turnId: string }
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    unwrap(await b.request('sessions.delete', { id: sessionId }))
    await waitForEvent(b, 'voice', (e) => e.type === 'status' && !e.status.listening)
    expect(unwrap(await b.request('voice.status', {}))).toMatchObject({
      listening: false,
      sessionId: null,
    })
    await waitFor(() => stt.calls().some((c) => c.call === 'stop'), 10_000, 'the stop')
  })

  it('after a new chat whose first spoken turn failed was not kept, the next final starts another', async () => {
    const cue = join(dir, 'again')
    const stt = script([{ final: 'First try.' }, { waitFile: cue }, { final: 'Second try.' }])
    await open({ stt })
    server.enqueue(httpError(401, 'Incorrect API key provided'), textReply('Now it works.'))
    unwrap(await b.request('voice.start', {}))
    const first = (await waitForEvent(
      b,
      'voice',
      (e) => e.type === 'final' && e.disposition === 'sent',
    )) as { sessionId: string; turnId: string }
    const end = await waitForEvent(
      b,
      'agent',
      (e) => e.turnId === first.turnId && e.type === 'turn_end',
    )
    expect(end).toMatchObject({ discardedSession: { text: 'First try.' } })
    writeFileSync(cue, '')
    const second = (await waitForEvent(
      b,
      'voice',
      (e) => e.type === 'final' && e.disposition === 'sent' && e.text === 'Second try.',
    )) as { sessionId: string }
    expect(second.sessionId).not.toBe(first.sessionId)
    await waitFor(() => server.requests.length === 2, 10_000, 'the second request')
    expect(voiceEvents().filter((e) => e.type === 'error')).toEqual([])
  })

  it('says when there is no voice server', async () => {
    await open({})
    const r = await b.request('voice.start', {})
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error.code).toBe('not_found')
      expect(r.error.message).toMatch(/No voice server/)
    }
  })

  it('tells the window when the server dies', async () => {
    const crashing = script([{ waitPolls: 2 }, { crash: true }])
    await open({ stt: crashing })
    unwrap(await b.request('voice.start', {}))
    const ended = await waitForEvent(
      b,
      'voice',
      (e) => e.type === 'status' && e.status.error !== null,
    )
    expect(ended).toMatchObject({ status: { listening: false } })
    expect((ended as { status: { error: string } }).status.error).toMatch(
      /voice server "stt" failed/,
    )
  })

  it('closes the session on the server when the host shuts down', async () => {
    const stt = script([{ partial: 'hm' }])
    await open({ stt })
    unwrap(await b.request('voice.start', {}))
    await host!.shutdown()
    host = null
    expect(stt.calls().map((c) => c.call)).toContain('stop')
    expect(stt.calls().at(-1)).toMatchObject({ call: 'stop' })
  })
})
