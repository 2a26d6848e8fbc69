/**
 * Issue 25, case 11: `chat.send` says "sent" only once the user's message is stored. The
 * model's server is probed after that (up to four requests of 1.5 s on a model's first turn),
 * so a host killed while it probes has the message the window was told was sent, and leaves
 * no empty chat. What is on disk is read by another connection, as after a crash; the second
 * test kills browser mode's own process.
 */
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { Result } from '../../src-preload/contract/routes'
import type { AppEvent } from '../../src-preload/contract/app-events'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { openChatHost, type ChatHost } from '../support/host'
import { sessionCookie, unwrap, wsBridge } from '../support/bridges'
import { startScriptedServer, textReply } from '../support/openai-server'

let h: ChatHost | null = null
afterEach(async () => {
  await h?.stop()
  h = null
})

type SendResult = Result<{ sessionId: string; turnId: string }>

/** A web host whose model's server lists its models only after the probe gave up (1.5 s). */
async function hostWithSlowProbe(): Promise<{ h: ChatHost; events: AppEvent[] }> {
  const chat = await openChatHost({
    prefix: 'cairn-send-first-',
    hostKind: 'web',
    bridge: false,
    models: ['m'],
  })
  chat.server.modelsReply = { type: 'sse', items: [], end: 'hang' }
  const events: AppEvent[] = []
  chat.host.hub.subscribe((e) => void events.push(e))
  return { h: chat, events }
}

/** the messages of every session as another process reads them from disk now */
function onDisk(dir: string): { title: string; messages: [string, string][] }[] {
  const store = createSessionStore(join(dir, 'data'))
  try {
    return store.listSessions({ limit: 100, includeArchived: true }).sessions.map((s) => ({
      title: s.title,
      messages: store.listMessages(s.id).map((m) => [m.role, m.content] as [string, string]),
    }))
  } finally {
    store.close()
  }
}

function turnEnd(events: AppEvent[], turnId: string): Promise<AppEvent> {
  return new Promise((resolve) => {
    const check = (): void => {
      const end = events.find(
        (e) => e.event === 'agent' && e.payload.turnId === turnId && e.payload.type === 'turn_end',
      )
      if (end) resolve(end)
      else setTimeout(check, 20)
    }
    check()
  })
}

describe('chat.send acknowledges a stored message', () => {
  it("a new chat's first message is on disk when the send resolves, before the probe ends", async () => {
    const started = await hostWithSlowProbe()
    h = started.h
    h.server.enqueue(textReply('an answer'))
    const sent = (await h.host.router.handle('chat.send', {
      text: 'keep me',
      workspace: h.dir,
    })) as SendResult
    if (!sent.ok) throw new Error(sent.error.message)
    // the host could die right now: the chat and its message are there
    expect(onDisk(h.dir)).toEqual([{ title: 'keep me', messages: [['user', 'keep me']] }])
    expect(h.server.requests).toHaveLength(0)
    await turnEnd(started.events, sent.data.turnId)
    expect(onDisk(h.dir)[0]!.messages).toEqual([
      ['user', 'keep me'],
      ['assistant', 'an answer'],
    ])
    // the message the turn sent is the stored one, once
    const sentMessages = h.server.requests[0]!.body as { messages: { role: string }[] }
    expect(sentMessages.messages.filter((m) => m.role === 'user')).toHaveLength(1)
  })

  it('a browser host killed (SIGKILL) right after "sent" keeps the message, and no empty chat', async () => {
    const server = await startScriptedServer({ models: ['m'] })
    server.modelsReply = { type: 'sse', items: [], end: 'hang' }
    const dir = mkdtempSync(join(tmpdir(), 'cairn-send-kill-'))
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'src-main/web/index.ts', '--no-open', '--data-dir', join(dir, 'data')],
      {
        env: {
          PATH: process.env['PATH'],
          HOME: dir,
          CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
          CAIRN_BASE_URL: server.baseURL,
          CAIRN_MODEL: 'm',
        },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    const exited = new Promise((r) => child.once('exit', r))
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = ''
        child.stdout!.on('data', (d: Buffer) => {
          out += d.toString()
          const m = /Cairn is running at (\S+)/.exec(out)
          if (m?.[1]) resolve(m[1])
        })
        child.once('exit', (code) => reject(new Error(`the host exited (${code})`)))
      })
      const bridge = await wsBridge(url, { cookie: await sessionCookie(url) })
      const sent = unwrap(
        await bridge.request('chat.send', { text: 'survives a kill', workspace: dir }),
      )
      child.kill('SIGKILL')
      await exited
      await bridge.close()
      const sessions = onDisk(dir)
      expect(sessions.map((s) => s.messages)).toEqual([[['user', 'survives a kill']]])
      expect(sent.sessionId).toBeTruthy()
      expect(server.requests).toHaveLength(0)
    } finally {
      child.kill('SIGKILL')
      await server.close()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
