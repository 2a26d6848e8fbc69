/** Session ids on the command line: a unique beginning is enough; an ambiguous one lists candidates. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { startCliEnv, runCli } from '../support/cli'
import { textReply, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let dataDir: string
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
/** two sessions whose ids begin alike, and one whose beginning is its own */
let twins: [string, string]
let unique: { id: string; prefix: string }

/** the shortest beginning of `id` that no other id shares */
function uniquePrefix(id: string, all: string[]): string {
  for (let n = 1; n <= id.length; n++) {
    const p = id.slice(0, n)
    if (all.filter((x) => x.startsWith(p)).length === 1) return p
  }
  return id
}

beforeAll(async () => {
  ;({ server, dataDir, env, stop } = await startCliEnv({
    prefix: 'cairn-cli-prefix-',
    models: ['m', 'other'],
    noLocalServers: false,
  }))
  // 17 random ids: two of them begin with the same hex digit
  const store = createSessionStore(dataDir)
  const ids = Array.from({ length: 17 }, (_, i) => store.createSession({ title: `chat ${i}` }).id)
  store.close()
  const byFirst = new Map<string, string[]>()
  for (const id of ids) byFirst.set(id[0]!, [...(byFirst.get(id[0]!) ?? []), id])
  const pair = [...byFirst.values()].find((g) => g.length >= 2)!
  twins = [pair[0]!, pair[1]!]
  const id = ids.find((x) => !pair.includes(x))!
  unique = { id, prefix: uniquePrefix(id, ids) }
})
afterAll(() => stop())

describe('session ids by their beginning', () => {
  it('sessions show, export and delete take a unique beginning', async () => {
    const show = await runCli(['sessions', 'show', unique.prefix], { env })
    expect(show.code).toBe(0)
    expect(show.stdout).toContain(unique.id)
    const exported = await runCli(['sessions', 'export', unique.prefix, '--format', 'json'], {
      env,
    })
    expect(exported.code).toBe(0)
    expect(exported.stdout).toContain(unique.id)
  })

  it('an ambiguous beginning is a usage error that lists the candidates', async () => {
    const common = twins[0].slice(0, 1)
    const r = await runCli(['sessions', 'show', common], { env })
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(new RegExp(`"${common}" is the beginning of \\d+ session ids`))
    expect(r.stderr).toContain(twins[0])
    expect(r.stderr).toContain(twins[1])
    expect(r.stdout).toBe('')
    const turn = await runCli(['--session', common, 'hello'], { env })
    expect(turn.code).toBe(2)
    expect(turn.stderr).toContain(twins[1])
  })

  it('--session continues the session a beginning names', async () => {
    server.enqueue(textReply('Continued.'))
    const r = await runCli(['--session', unique.prefix, '--json', 'go on'], { env })
    expect(r.code).toBe(0)
    const show = await runCli(['sessions', 'show', unique.id, '--json'], { env })
    const { messages } = JSON.parse(show.stdout) as { messages: { content: string }[] }
    expect(messages.map((m) => m.content)).toEqual(['go on', 'Continued.'])
  })

  it('an id no session has is still "no such session"', async () => {
    const r = await runCli(['sessions', 'show', 'zzz'], { env })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('There is no session "zzz"')
  })

  it('delete takes a unique beginning too', async () => {
    const r = await runCli(['sessions', 'delete', unique.prefix], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain(`Deleted session ${unique.id}.`)
  })
})

describe('cairn --help', () => {
  it('says what each environment variable does, and that CAIRN_MODEL does not switch a session', async () => {
    const r = await runCli(['--help'], { env: {} })
    expect(r.code).toBe(0)
    for (const name of [
      'CAIRN_BASE_URL',
      'OPENAI_BASE_URL',
      'CAIRN_API_KEY',
      'OPENAI_API_KEY',
      'CAIRN_MODEL',
      'CAIRN_LOCAL_SERVERS',
      'CAIRN_DATA_DIR',
    ])
      expect(r.stdout).toMatch(new RegExp(`^  ${name} `, 'm'))
    expect(r.stdout).toMatch(/CAIRN_MODEL[\s\S]*a continued session\s+keeps its own model/)
    expect(r.stdout).not.toMatch(/else CAIRN_MODEL, else the session's/)
  })

  it('CAIRN_MODEL leaves a continued session on its model; --model switches it', async () => {
    const cont = { ...env, CAIRN_MODEL: 'other' }
    server.enqueue(textReply('First.'), textReply('Same model.'))
    const twin = twins[0]
    // the twin has no model yet: its first turn takes CAIRN_MODEL=m
    await runCli(['--session', twin, 'first'], { env })
    expect(server.requests.at(-1)?.body).toMatchObject({ model: 'm' })
    await runCli(['--session', twin, 'second'], { env: cont })
    expect(server.requests.at(-1)?.body).toMatchObject({ model: 'm' })
    server.enqueue(textReply('Switched.'))
    await runCli(['--session', twin, '--model', 'other', 'third'], { env: cont })
    expect(server.requests.at(-1)?.body).toMatchObject({ model: 'other' })
  })
})
