/**
 * A session is kept only once its first request got an answer: a first send from the window
 * against a server that is not running leaves no session (and no turn logs) behind, and
 * says so in its `turn_end`; a later failure in a session that exists keeps it.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { AppEvent } from '../../src-preload/contract/app-events'
import type { TurnEndEvent } from '../../src-preload/contract/events'
import type { Result } from '../../src-preload/contract/routes'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { startScriptedServer, textReply, type ScriptedServer } from '../support/openai-server'

/** a loopback port nothing listens on */
async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const { port } = s.address() as { port: number }
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

let dir: string
let host: AppHost | null = null
let server: ScriptedServer | null = null
const events: AppEvent[] = []

async function open(baseURL: string): Promise<AppHost> {
  host = await createAppHost({
    dataDir: join(dir, 'data'),
    hostKind: 'web',
    version: 't',
    env: {
      CAIRN_BASE_URL: baseURL,
      CAIRN_MODEL: 'm',
      CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
    },
  })
  host.hub.subscribe((e) => void events.push(e))
  return host
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-first-send-'))
  events.length = 0
})
afterEach(async () => {
  await host?.shutdown()
  await server?.close()
  host = null
  server = null
  rmSync(dir, { recursive: true, force: true })
})

type Sent = Result<{ sessionId: string; turnId: string }>

async function send(
  h: AppHost,
  input: Record<string, unknown>,
): Promise<{ sessionId: string; end: TurnEndEvent }> {
  const r = (await h.router.handle('chat.send', { workspace: dir, ...input })) as Sent
  if (!r.ok) throw new Error(r.error.message)
  const end = await new Promise<TurnEndEvent>((resolve) => {
    const check = (): void => {
      const e = events.find(
        (x) =>
          x.event === 'agent' &&
          x.payload.turnId === r.data.turnId &&
          x.payload.type === 'turn_end',
      )
      if (e) resolve(e.payload as TurnEndEvent)
      else setTimeout(check, 10)
    }
    check()
  })
  return { sessionId: r.data.sessionId, end }
}

function runFinished(sessionId: string, end: TurnEndEvent): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      const from = events.findIndex(
        (x) =>
          x.event === 'agent' && x.payload.type === 'turn_end' && x.payload.turnId === end.turnId,
      )
      const done = events
        .slice(from + 1)
        .some((x) => x.event === 'sessions.changed' && x.payload.sessionId === sessionId)
      if (done) resolve()
      else setTimeout(check, 10)
    }
    check()
  })
}

async function sessionCount(h: AppHost): Promise<number> {
  const r = (await h.router.handle('sessions.list', {})) as Result<{ total: number }>
  if (!r.ok) throw new Error(r.error.message)
  return r.data.total
}

describe('the first send of a new chat', () => {
  it('against a server that is not running leaves no session, and says what to put back', async () => {
    const h = await open(`http://127.0.0.1:${await closedPort()}/v1`)
    const { sessionId, end } = await send(h, { text: 'What is a cairn?' })
    expect(end.reason).toBe('error')
    expect(end.error?.message).toMatch(/nothing is listening/)
    expect(end.discardedSession).toEqual({ text: 'What is a cairn?' })
    expect(await sessionCount(h)).toBe(0)
    const got = (await h.router.handle('sessions.get', { id: sessionId })) as Result<unknown>
    expect(got.ok).toBe(false)
    // the host says the session changed once the turn has wholly finished (logs included)
    await runFinished(sessionId, end)
    expect(existsSync(join(dir, 'data', 'logs', 'sessions', sessionId))).toBe(false)
  })

  it('that got an answer keeps its session; a later failure there keeps it and the question', async () => {
    server = await startScriptedServer({ models: ['m'] })
    const h = await open(server.baseURL)
    server.enqueue(textReply('A pile of stones.'))
    const first = await send(h, { text: 'What is a cairn?' })
    expect(first.end.reason).toBe('completed')
    expect(first.end.discardedSession).toBeUndefined()
    await server.close()
    server = null
    const second = await send(h, { text: 'Who builds them?', sessionId: first.sessionId })
    expect(second.end.reason).toBe('error')
    expect(second.end.discardedSession).toBeUndefined()
    expect(await sessionCount(h)).toBe(1)
    const got = (await h.router.handle('sessions.get', { id: first.sessionId })) as Result<{
      messages: { role: string; content: string }[]
    }>
    expect(got.ok && got.data.messages.map((m) => m.content)).toContain('Who builds them?')
  })
})
