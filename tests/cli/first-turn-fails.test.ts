/** `cairn "prompt"` against a server that is not running leaves no session behind. */
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli'
import { startScriptedServer, textReply } from '../support/openai-server'

let dataDir: string
let env: NodeJS.ProcessEnv
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-cli-'))
  env = { CAIRN_DATA_DIR: dataDir, CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' }
})
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true })
})

async function closedPort(): Promise<number> {
  const s = createServer()
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r))
  const { port } = s.address() as { port: number }
  await new Promise<void>((r) => s.close(() => r()))
  return port
}

async function sessionIds(): Promise<string[]> {
  const list = await runCli(['sessions', 'list', '--json'], { env })
  return (JSON.parse(list.stdout) as { sessions: { id: string }[] }).sessions.map((s) => s.id)
}

describe('a first turn that gets no answer', () => {
  it('fails, says no session was kept, and leaves none (nor its logs)', async () => {
    const url = `http://127.0.0.1:${await closedPort()}/v1`
    const r = await runCli(['--base-url', url, '--model', 'm1', 'What is a cairn?'], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/nothing is listening/)
    expect(r.stderr).toContain('Nothing was answered, so no session was kept.')
    expect(await sessionIds()).toEqual([])
    const logs = join(dataDir, 'logs', 'sessions')
    expect(existsSync(logs) ? readdirSync(logs) : []).toEqual([])
  })

  it('in a session that had answers, keeps the session and the question', async () => {
    const server = await startScriptedServer({ models: ['m1'] })
    try {
      server.enqueue(textReply('A pile of stones.'))
      const ok = await runCli(['--base-url', server.baseURL, '--model', 'm1', 'hi'], { env })
      expect(ok.code).toBe(0)
      expect(ok.stderr).not.toContain('no session was kept')
    } finally {
      await server.close()
    }
    const [id] = await sessionIds()
    const url = `http://127.0.0.1:${await closedPort()}/v1`
    const r = await runCli(['--base-url', url, '--session', id!, 'Who builds them?'], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).not.toContain('no session was kept')
    expect(await sessionIds()).toEqual([id])
    const show = await runCli(['sessions', 'show', id!], { env })
    expect(show.stdout).toContain('Who builds them?')
  })

  it('asked again with the same command after the failure, the question is sent once', async () => {
    const server = await startScriptedServer({ models: ['m1'] })
    try {
      server.enqueue(textReply('A pile of stones.'))
      await runCli(['--base-url', server.baseURL, '--model', 'm1', 'hi'], { env })
      const [id] = await sessionIds()
      const down = `http://127.0.0.1:${await closedPort()}/v1`
      const failed = await runCli(['--base-url', down, '--session', id!, 'Who builds them?'], {
        env,
      })
      expect(failed.code).toBe(1)
      server.enqueue(textReply('Walkers.'))
      const again = await runCli(
        ['--base-url', server.baseURL, '--session', id!, 'Who builds them?'],
        { env },
      )
      expect(again.code).toBe(0)
      const body = server.requests.at(-1)!.body as { messages: { role: string; content: string }[] }
      const conversation = body.messages.filter((m) => m.role !== 'system')
      expect(conversation.map((m) => `${m.role}: ${m.content}`)).toEqual([
        'user: hi',
        'assistant: A pile of stones.',
        'user: Who builds them?',
      ])
    } finally {
      await server.close()
    }
  })
})
