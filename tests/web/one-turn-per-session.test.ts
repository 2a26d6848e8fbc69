/**
 * One turn per session: two sends to one session are never interleaved (the second is
 * refused before the first one's first `await`), and a session whose turn runs in another
 * process (the CLI, another window) is refused with "busy in another window".
 */
import { spawn, type ChildProcess } from 'node:child_process'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Result } from '../../src-preload/contract/routes'
import type { AppEvent } from '../../src-preload/contract/app-events'
import type { AppHost } from '../../src-main/services/host/app-host'
import { openChatHost } from '../support/host'
import { slowText, textReply, type ScriptedServer } from '../support/openai-server'

let dir: string
let server: ScriptedServer
let host: AppHost
let stop: () => Promise<void>
const events: AppEvent[] = []
const children: ChildProcess[] = []

beforeAll(async () => {
  ;({ dir, server, host, stop } = await openChatHost({
    prefix: 'cairn-one-turn-',
    hostKind: 'web',
    bridge: false,
    models: ['m'],
  }))
  host.hub.subscribe((e) => void events.push(e))
})
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL')
  await stop()
})

type SendResult = Result<{ sessionId: string; turnId: string }>
const send = (input: Record<string, unknown>): Promise<SendResult> =>
  host.router.handle('chat.send', { workspace: dir, ...input }) as Promise<SendResult>

function turnEnded(turnId: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (
        events.some(
          (e) =>
            e.event === 'agent' && e.payload.turnId === turnId && e.payload.type === 'turn_end',
        )
      )
        resolve()
      else setTimeout(check, 20)
    }
    check()
  })
}

async function messages(sessionId: string): Promise<[string, string][]> {
  const got = (await host.router.handle('sessions.get', { id: sessionId })) as Result<{
    messages: { role: string; content: string }[]
  }>
  if (!got.ok) throw new Error(got.error.message)
  return got.data.messages.map((m) => [m.role, m.content])
}

describe('one turn per session', () => {
  let sessionId: string

  it('refuses a second send made before the first one has started, and nothing interleaves', async () => {
    server.enqueue(textReply('first answer'))
    const first = await send({ text: 'first' })
    if (!first.ok) throw new Error(first.error.message)
    sessionId = first.data.sessionId
    await turnEnded(first.data.turnId)

    server.enqueue(slowText(5, 20), textReply('B answer'))
    const [a, b] = await Promise.all([
      send({ sessionId, text: 'A' }),
      send({ sessionId, text: 'B' }),
    ])
    expect(a.ok).toBe(true)
    expect(b).toMatchObject({ ok: false, error: { code: 'conflict' } })
    if (a.ok) await turnEnded(a.data.turnId)
    const after = await messages(sessionId)
    expect(after.map(([role, text]) => `${role}:${role === 'user' ? text : ''}`)).toEqual([
      'user:first',
      'assistant:',
      'user:A',
      'assistant:',
    ])
    // once the turn has ended, the session takes the next send
    server.enqueue(textReply('C answer'))
    const c = await send({ sessionId, text: 'C' })
    expect(c.ok).toBe(true)
    if (c.ok) await turnEnded(c.data.turnId)
  })

  it('refuses a session whose turn runs in another process, and takes it once that process is gone', async () => {
    const worker = join(import.meta.dirname, '..', 'storage', 'hold-lease-worker.ts')
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', worker, join(dir, 'data'), sessionId],
      {
        cwd: process.cwd(),
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    children.push(child)
    await new Promise<void>((resolve, reject) => {
      let out = ''
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString()
        if (out.includes('held')) resolve()
      })
      child.once('exit', (code) => reject(new Error(`worker exited ${code}`)))
    })
    const before = (await messages(sessionId)).length
    const refused = await send({ sessionId, text: 'while busy' })
    expect(refused).toMatchObject({ ok: false, error: { code: 'busy' } })
    if (!refused.ok)
      expect(refused.error.message).toMatch(/busy in another window \(the cairn command line/)
    expect((await messages(sessionId)).length).toBe(before)

    const exited = new Promise((r) => child.once('exit', r))
    child.kill('SIGKILL')
    await exited
    server.enqueue(textReply('free again'))
    const ok = await send({ sessionId, text: 'after' })
    expect(ok.ok).toBe(true)
    if (ok.ok) await turnEnded(ok.data.turnId)
  }, 60_000)
})
