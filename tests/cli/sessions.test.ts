import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCliEnv, runCli } from '../support/cli'
import { textReply, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let dataDir: string
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
let ids: string[] = []

beforeAll(async () => {
  ;({ server, dataDir, env, stop } = await startCliEnv({
    prefix: 'cairn-cli-sessions-',
    noLocalServers: false,
  }))
  server.enqueue(textReply('Granite is an igneous rock.'), textReply('Basalt forms from lava.'))
  await runCli(['Tell me about granite'], { env })
  await runCli(['And "basalt"?'], { env })
  const { sessions } = JSON.parse(
    (await runCli(['sessions', 'list', '--json'], { env })).stdout,
  ) as { sessions: { id: string }[] }
  ids = sessions.map((s) => s.id)
})
afterAll(() => stop())

describe('cairn sessions', () => {
  it('lists sessions newest first, titled by their first message', async () => {
    const r = await runCli(['sessions', 'list'], { env })
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    expect(lines).toHaveLength(2)
    expect(lines[0]).toContain('And "basalt"?')
    expect(lines[1]).toContain('Tell me about granite')
  })

  it('shows a session', async () => {
    const r = await runCli(['sessions', 'show', ids[1]!], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Granite is an igneous rock.')
    expect((await runCli(['sessions', 'show', 'missing'], { env })).code).toBe(1)
  })

  it('searches message text, with quotes and stars taken literally', async () => {
    const r = await runCli(['sessions', 'search', 'igneous', '--json'], { env })
    const { hits } = JSON.parse(r.stdout) as { hits: { sessionId: string; snippet: string }[] }
    expect(hits.map((h) => h.sessionId)).toEqual([ids[1]])
    expect(hits[0]?.snippet).toMatch(/\[igneous\]/)
    const odd = await runCli(['sessions', 'search', '"basalt*'], { env })
    expect(odd.code).toBe(0)
    expect(odd.stdout).toContain(ids[0]!)
  })

  it('groups the hits of a session under one heading', async () => {
    const r = await runCli(['sessions', 'search', 'granite'], { env })
    expect(r.code).toBe(0)
    const headings = r.stdout.split('\n').filter((l) => l.startsWith(ids[1]!))
    expect(headings).toHaveLength(1)
    expect(r.stdout).toMatch(/^ {4}\[\d+\] (user|assistant): .*\[granite\]/im)
  })

  it('exports markdown and json', async () => {
    const md = await runCli(['sessions', 'export', ids[1]!, '--format', 'md'], { env })
    expect(md.code).toBe(0)
    expect(md.stdout).toMatch(/^# Tell me about granite/m)
    expect(md.stdout).toContain('Granite is an igneous rock.')
    const json = JSON.parse(
      (await runCli(['sessions', 'export', ids[1]!, '--format', 'json'], { env })).stdout,
    ) as {
      messages: { role: string }[]
    }
    expect(json.messages.map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('deletes a session with its turn logs', async () => {
    const logs = join(dataDir, 'logs', 'sessions', ids[0]!)
    expect(existsSync(logs)).toBe(true)
    const r = await runCli(['sessions', 'delete', ids[0]!], { env })
    expect(r.code).toBe(0)
    expect(existsSync(logs)).toBe(false)
    const list = JSON.parse((await runCli(['sessions', 'list', '--json'], { env })).stdout) as {
      sessions: { id: string }[]
    }
    expect(list.sessions.map((s) => s.id)).toEqual([ids[1]])
    expect((await runCli(['sessions', 'delete', ids[0]!], { env })).code).toBe(1)
  })

  it('rejects an unknown subcommand with exit code 2', async () => {
    expect((await runCli(['sessions', 'frobnicate'], { env })).code).toBe(2)
  })
})
