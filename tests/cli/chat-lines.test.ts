/**
 * `cairn chat` without a terminal: each line of stdin is a turn, in order, in one session;
 * its commands work there too (the built CLI against the scripted server).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCliEnv, runCli } from '../support/cli'
import { httpError, textReply, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, env, stop } = await startCliEnv({ prefix: 'cairn-chat-', models: ['m1', 'm2'] }))
})
afterEach(() => stop())

type Body = { model: string; messages: { role: string; content: unknown }[] }
const body = (i: number): Body => server.requests[i]!.body as Body
const userTexts = (i: number): unknown[] =>
  body(i)
    .messages.filter((m) => m.role === 'user')
    .map((m) => m.content)

async function sessions(): Promise<{ id: string; title: string; model: string }[]> {
  const list = await runCli(['sessions', 'list', '--json'], { env })
  return (JSON.parse(list.stdout) as { sessions: { id: string; title: string; model: string }[] })
    .sessions
}

describe('cairn chat without a terminal', () => {
  it('sends each line as a turn of one session, in order', async () => {
    server.enqueue(textReply('First answer.'), textReply('Second answer.'))
    const r = await runCli(['chat'], { env, input: 'one\ntwo\n' })
    expect(r.stderr).not.toMatch(/Error/)
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('First answer.\nSecond answer.\n')
    expect(userTexts(0)).toEqual(['one'])
    // the second turn continues the first one's session
    expect(userTexts(1)).toEqual(['one', 'two'])
    expect(await sessions()).toHaveLength(1)
  })

  it('/new starts another session, /model switches the model, /session goes back', async () => {
    server.enqueue(textReply('A'), textReply('B'), textReply('C'))
    const first = await runCli(['chat'], { env, input: 'alpha\n/new\n/model m2\nbeta\n' })
    expect(first.code).toBe(0)
    expect(first.stderr).toContain('A new session starts with your next message.')
    expect(first.stderr).toContain('From your next message on, the model is m2.')
    expect(body(0).model).toBe('m1')
    expect(body(1).model).toBe('m2')
    expect(userTexts(1)).toEqual(['beta'])
    const listed = await sessions()
    expect(listed).toHaveLength(2)
    const alpha = listed.find((s) => s.title === 'alpha')!
    // a unique beginning of the id, as --session takes it
    const again = await runCli(['chat'], {
      env,
      input: `/session ${alpha.id.slice(0, 8)}\n/session\ngamma\n/quit\nnot sent\n`,
    })
    expect(again.code).toBe(0)
    expect(again.stderr).toContain(`Continuing session ${alpha.id} · alpha`)
    expect(again.stderr).toContain(`Session ${alpha.id} · alpha`)
    expect(userTexts(2)).toEqual(['alpha', 'gamma'])
    expect(server.requests).toHaveLength(3)
  })

  it('says what it does not know, and --session continues a session', async () => {
    server.enqueue(textReply('A'), textReply('B'))
    await runCli(['chat'], { env, input: 'alpha\n' })
    const [s] = await sessions()
    const r = await runCli(['chat', '--session', s!.id.slice(0, 6)], {
      env,
      input: '/nope\n/session zzzz\n/help\n//slash\n',
    })
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('There is no command /nope.')
    expect(r.stderr).toContain('There is no session "zzzz"')
    expect(r.stderr).toContain('/voice start [microphone|loopback]')
    expect(userTexts(1)).toEqual(['alpha', '/slash'])
  })

  it('--session naming no session is refused before anything is sent', async () => {
    const r = await runCli(['chat', '--session', 'nothing-like-it'], { env, input: 'hi\n' })
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('There is no session "nothing-like-it"')
    expect(server.requests).toHaveLength(0)
  })

  it('a turn that fails gives its exit code at the end; later lines still run', async () => {
    server.enqueue(httpError(400, 'no such thing'), textReply('Fine now.'))
    const r = await runCli(['chat'], { env, input: 'one\ntwo\n' })
    expect(r.stderr).toContain('no such thing')
    expect(r.stdout).toBe('Fine now.\n')
    expect(r.code).toBe(1)
  })
})
