import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCliEnv, runCli, startCli } from '../support/cli'
import {
  startScriptedServer,
  textReply,
  toolCallsReply,
  type ScriptedServer,
  slowText,
} from '../support/openai-server'

let server: ScriptedServer
let dataDir: string
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, dataDir, env, stop } = await startCliEnv({
    prefix: 'cairn-cli-',
    models: ['m1', 'm2'],
    modelEnv: false,
  }))
})
afterEach(() => stop())

describe('cairn "prompt"', () => {
  it('streams the answer to stdout, and the session and its turn logs are kept', async () => {
    server.enqueue(textReply('Hello from the model.', { chunkSize: 3 }))
    const r = await runCli(['--base-url', server.baseURL, '--model', 'm1', 'hi'], { env })
    expect(r.stderr).not.toMatch(/Error/)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('Hello from the model.\n')
    expect(server.requests[0]?.body).toMatchObject({
      model: 'm1',
      stream: true,
      messages: [
        { role: 'system', content: expect.stringContaining('# Environment') },
        { role: 'user', content: 'hi' },
      ],
    })
    // the system prompt tells the model the day, the system and the workspace folder
    const system = (server.requests[0]?.body as { messages: { content: string }[] }).messages[0]!
    expect(system.content).toContain(`Today's date: ${new Date().toISOString().slice(0, 10)}`)
    expect(system.content).toMatch(/Operating system: \S+/)
    expect(system.content).toMatch(/Workspace folder \(where the file tools work\): \//)

    const list = await runCli(['sessions', 'list', '--json'], { env })
    const { sessions } = JSON.parse(list.stdout) as {
      sessions: { id: string; title: string; model: string }[]
    }
    expect(sessions).toHaveLength(1)
    expect(sessions[0]).toMatchObject({ title: 'hi', model: 'm1' })
    const logs = readdirSync(join(dataDir, 'logs', 'sessions', sessions[0]!.id)).sort()
    expect(logs).toEqual(['turn-001-request.json', 'turn-001-response.json'])
    const response = JSON.parse(
      readFileSync(
        join(dataDir, 'logs', 'sessions', sessions[0]!.id, 'turn-001-response.json'),
        'utf8',
      ),
    ) as { content: string }
    expect(response.content).toBe('Hello from the model.')
  })

  it('takes the prompt on stdin, and --json prints only events', async () => {
    server.enqueue(textReply('Piped.'))
    const r = await runCli(['--base-url', server.baseURL, '--model', 'm1', '--json'], {
      env,
      input: 'from stdin\n',
    })
    expect(r.code).toBe(0)
    const lines = r.stdout.trim().split('\n')
    const events = lines.map(
      (l) => JSON.parse(l) as { type: string; sessionId: string; turnId: string },
    )
    expect(events[0]?.type).toBe('turn_start')
    expect(events.at(-1)).toMatchObject({ type: 'turn_end', reason: 'completed' })
    for (const e of events) expect(e.sessionId && e.turnId).toBeTruthy()
    expect(server.requests[0]?.body).toMatchObject({
      messages: [{ role: 'system' }, { role: 'user', content: 'from stdin' }],
    })
  })

  it('continues a session with --session, which keeps its model until --model switches it', async () => {
    server.enqueue(textReply('one'), textReply('two'), textReply('three'))
    await runCli(['--base-url', server.baseURL, '--model', 'm1', 'first'], { env })
    const { sessions } = JSON.parse(
      (await runCli(['sessions', 'list', '--json'], { env })).stdout,
    ) as { sessions: { id: string }[] }
    const id = sessions[0]!.id
    const envModel = { ...env, CAIRN_MODEL: 'm2' }
    expect(
      (await runCli(['--base-url', server.baseURL, '--session', id, 'second'], { env: envModel }))
        .code,
    ).toBe(0)
    expect(server.requests[1]?.body).toMatchObject({ model: 'm1' })
    // the system prompt, the first exchange and the new question
    expect((server.requests[1]?.body as { messages: unknown[] }).messages).toHaveLength(4)
    expect(
      (
        await runCli(['--base-url', server.baseURL, '--session', id, '--model', 'm2', 'third'], {
          env,
        })
      ).code,
    ).toBe(0)
    expect(server.requests[2]?.body).toMatchObject({ model: 'm2' })
    const show = JSON.parse((await runCli(['sessions', 'show', id, '--json'], { env })).stdout) as {
      session: { model: string }
    }
    expect(show.session.model).toBe('m2')
    // turn logs number the calls of the session across turns and processes
    expect(
      readdirSync(join(dataDir, 'logs', 'sessions', id))
        .filter((f) => f.endsWith('request.json'))
        .sort(),
    ).toEqual(['turn-001-request.json', 'turn-002-request.json', 'turn-003-request.json'])
  })

  it('takes the provider from the environment', async () => {
    server.enqueue(textReply('env works'))
    const r = await runCli(['hi'], {
      env: { ...env, CAIRN_BASE_URL: server.baseURL, CAIRN_MODEL: 'm2' },
    })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('env works\n')
    expect(server.requests[0]?.body).toMatchObject({ model: 'm2' })
  })

  it('finds a local server when nothing is configured', async () => {
    server.models = ['only-model']
    server.enqueue(textReply('found you'))
    const r = await runCli(['hi'], {
      env: { ...env, CAIRN_LOCAL_SERVERS: `http://127.0.0.1:9/v1,${server.baseURL}` },
    })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('found you\n')
    expect(server.requests[0]?.body).toMatchObject({ model: 'only-model' })
  })

  it('says how to configure a provider when there is none', async () => {
    const r = await runCli(['hi'], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(/No model provider is configured/)
    expect(r.stderr).toMatch(/CAIRN_BASE_URL/)
    expect(r.stderr).toMatch(/--base-url/)
  })

  it('exits 2 on a usage error and 1 when the key is rejected', async () => {
    expect((await runCli(['--approve', 'maybe', 'hi'], { env })).code).toBe(2)
    expect((await runCli(['--max-iterations', 'lots', 'hi'], { env })).code).toBe(2)
    expect(
      (await runCli(['--session', 'nope', '--base-url', server.baseURL, 'hi'], { env })).code,
    ).toBe(2)
    const keyed = await startScriptedServer({ apiKey: 'right-key' })
    try {
      const r = await runCli(['--base-url', keyed.baseURL, '--model', 'm', 'hi'], {
        env: { ...env, CAIRN_API_KEY: 'wrong-key' },
      })
      expect(r.code).toBe(1)
      expect(r.stderr).toMatch(/API key was rejected/)
      expect(keyed.requests).toHaveLength(1)
    } finally {
      await keyed.close()
    }
  })

  it('never writes the API key into the turn logs', async () => {
    const key = 'sk-test-9f8e7d6c5b4a3210'
    const keyed = await startScriptedServer({ apiKey: key })
    try {
      // even when the answer itself repeats the key
      keyed.enqueue(textReply(`Your key is ${key}.`))
      const r = await runCli(['--base-url', keyed.baseURL, '--model', 'm', 'what is my key?'], {
        env: { ...env, CAIRN_API_KEY: key },
      })
      expect(r.code).toBe(0)
      expect(keyed.requests[0]?.headers['authorization']).toBe(`Bearer ${key}`)
      const root = join(dataDir, 'logs', 'sessions')
      const files = readdirSync(root, { recursive: true, withFileTypes: true }).filter((f) =>
        f.isFile(),
      )
      expect(files).toHaveLength(2)
      for (const f of files) {
        const text = readFileSync(join(f.parentPath, f.name), 'utf8')
        expect(text).not.toContain(key)
        expect(text.toLowerCase()).not.toContain('bearer')
      }
    } finally {
      await keyed.close()
    }
  })

  it('exits 3 when a limit stops the turn', async () => {
    for (let i = 0; i < 3; i++)
      server.enqueue(toolCallsReply([{ name: 'no_such_tool', arguments: '{}' }]))
    const r = await runCli(
      ['--base-url', server.baseURL, '--model', 'm1', '--max-iterations', '2', 'go'],
      { env },
    )
    expect(r.code).toBe(3)
    expect(r.stderr).toMatch(/limit of LLM calls/)
  })

  for (const [signal, code] of [
    ['SIGINT', 130],
    ['SIGTERM', 143],
  ] as const) {
    it(`${signal} stops the turn cleanly, keeps the partial answer and exits ${code}`, async () => {
      server.enqueue(slowText(400, 15))
      const cli = startCli(['--base-url', server.baseURL, '--model', 'm1', 'long story'], { env })
      await cli.waitForStdout('w5 ')
      cli.child.kill(signal)
      const r = await cli.done
      expect(r.code).toBe(code)
      expect(r.stdout).not.toContain('w399')
      const db = new Database(join(dataDir, 'cairn.db'), { readonly: true })
      const last = db
        .prepare('SELECT role, status, content FROM messages ORDER BY rowid DESC LIMIT 1')
        .get() as { role: string; status: string; content: string }
      db.close()
      expect(last).toMatchObject({ role: 'assistant', status: 'stopped' })
      expect(last.content.startsWith('w0 w1 w2 w3 w4 w5')).toBe(true)
    })
  }

  it('SIGKILL in the middle of a turn leaves an intact database and a valid history', async () => {
    server.enqueue(
      toolCallsReply([
        { id: 'c1', name: 'no_such_tool', arguments: '{}' },
        { id: 'c2', name: 'other', arguments: '{}' },
      ]),
      slowText(400, 15),
    )
    const cli = startCli(['--base-url', server.baseURL, '--model', 'm1', 'go'], { env })
    await cli.waitForStdout('w3 ')
    cli.child.kill('SIGKILL')
    const r = await cli.done
    expect(r.signal).toBe('SIGKILL')
    expect(existsSync(join(dataDir, 'cairn.db'))).toBe(true)
    const db = new Database(join(dataDir, 'cairn.db'))
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok')
    db.close()
    // the next turn in that session is accepted by a strict server
    const { sessions } = JSON.parse(
      (await runCli(['sessions', 'list', '--json'], { env })).stdout,
    ) as { sessions: { id: string }[] }
    server.enqueue(textReply('recovered'))
    const next = await runCli(
      ['--base-url', server.baseURL, '--session', sessions[0]!.id, 'again'],
      { env },
    )
    expect(next.code).toBe(0)
    expect(next.stdout).toBe('recovered\n')
  })
})
