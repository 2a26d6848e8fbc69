/**
 * `cairn chat` on a real pseudo-terminal (util-linux `script`): the prompt, its commands,
 * an approval asked in the middle of the REPL, Ctrl-C stopping a running turn (every tool
 * call answered in the stored session), Ctrl-C and Ctrl-D at the prompt.
 */
import { execFileSync } from 'node:child_process'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCliEnv, runCli } from '../support/cli'
import { fixture } from '../support/mcp'
import {
  lastToolContent,
  slowText,
  textReply,
  toolCallsReply,
  type ScriptedServer,
} from '../support/openai-server'
import { startCliOnTerminal, type TerminalCli } from '../support/pty-cli'

let server: ScriptedServer
let env: NodeJS.ProcessEnv
let configFile: string
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, env, configFile, stop } = await startCliEnv({
    prefix: 'cairn-chat-tty-',
    models: ['m1', 'm2'],
    mcpServers: { hang: { command: process.execPath, args: [fixture('hang-on-call.mjs')] } },
  }))
})
afterEach(() => stop())

const PROMPT = 'you> '

/** waits for the next prompt after what was shown so far, then types the line */
async function say(t: TerminalCli, line: string): Promise<void> {
  await t.waitFor(PROMPT, Math.max(0, t.text().lastIndexOf('\n')))
  t.type(`${line}\r`)
}

/** resolves once the prompt has been shown `n` times */
async function prompts(t: TerminalCli, n: number): Promise<void> {
  for (let i = 0; i < 2000 && t.count(PROMPT) < n; i++) await new Promise((r) => setTimeout(r, 10))
  expect(t.count(PROMPT), `the terminal showed:\n${t.text()}`).toBeGreaterThanOrEqual(n)
}

type Stored = {
  role: string
  content: string
  toolCalls: { id: string }[] | null
  toolCallId: string | null
}

async function storedMessages(): Promise<{ id: string; messages: Stored[] }[]> {
  const list = await runCli(['sessions', 'list', '--json'], { env })
  const { sessions } = JSON.parse(list.stdout) as { sessions: { id: string }[] }
  const out = []
  for (const s of sessions) {
    const shown = await runCli(['sessions', 'show', s.id, '--json'], { env })
    out.push({ id: s.id, messages: (JSON.parse(shown.stdout) as { messages: Stored[] }).messages })
  }
  return out
}

describe('cairn chat on a terminal', () => {
  it('shows a prompt; /help, a message, /new, /session and Ctrl-D work', async () => {
    server.enqueue(textReply('First answer.'), textReply('Second answer.'))
    const t = startCliOnTerminal(['chat'], { env })
    await prompts(t, 1)
    expect(t.text()).toContain('Cairn chat. /help lists the commands')
    await say(t, '/help')
    await t.waitFor('/voice start [microphone|loopback]')
    await say(t, 'hello there')
    await t.waitFor('First answer.')
    await prompts(t, 3)
    await say(t, '/session')
    await t.waitFor(/Session [0-9a-f-]{36} · hello there/)
    const first = /Session ([0-9a-f-]{36}) · hello there/.exec(t.text())![1]!
    await say(t, '/new')
    await t.waitFor('A new session starts with your next message.')
    await say(t, 'second one')
    await t.waitFor('Second answer.')
    await say(t, `/session ${first.slice(0, 8)}`)
    await t.waitFor(`Continuing session ${first} · hello there`)
    await prompts(t, 7)
    t.type('\x04') // Ctrl-D at an empty prompt
    const end = await t.done
    expect(end.code).toBe(0)
    const bodies = server.requests.map(
      (r) => (r.body as { messages: { role: string; content: string }[] }).messages,
    )
    expect(bodies[1]!.filter((m) => m.role === 'user').map((m) => m.content)).toEqual([
      'second one',
    ])
    expect(await storedMessages()).toHaveLength(2)
  })

  it('asks for approval on the terminal in the middle of the REPL, and goes on after', async () => {
    server.enqueue(
      toolCallsReply([{ name: 'hang__echo', arguments: '{"message":"ping"}' }]),
      (req) => textReply(`Tool said: ${lastToolContent(req)}`),
      textReply('Next answer.'),
    )
    const t = startCliOnTerminal(['chat', '--mcp-config', configFile], { env })
    await say(t, 'use the tool')
    const asked = await t.waitFor('Allow? [y]es once')
    expect(asked).toContain('tool:   echo')
    t.type('y\r')
    await t.waitFor('Tool said: Echo: ping')
    // the prompt is back and reads the next line (no second reader ate it)
    await say(t, 'again')
    await t.waitFor('Next answer.')
    await say(t, '/quit')
    expect((await t.done).code).toBe(0)
  })

  it('Ctrl-C stops a running turn, every tool call answered, and the prompt comes back', async () => {
    server.enqueue(
      toolCallsReply([
        { name: 'hang__echo', arguments: '{"message":"quick"}' },
        { name: 'hang__hang', arguments: '{"progressMs":0}' },
      ]),
      textReply('After the stop.'),
    )
    const t = startCliOnTerminal(['chat', '--mcp-config', configFile, '--approve', 'all'], {
      env,
    })
    await say(t, 'run forever')
    await t.waitFor('→ hang__hang')
    await t.waitFor('✓ hang__echo')
    const before = t.count(PROMPT)
    t.type('\x03')
    await t.waitFor('Stopping the answer')
    await prompts(t, before + 1)
    const [session] = await storedMessages()
    const calls = session!.messages.flatMap((m) => m.toolCalls ?? []).map((c) => c.id)
    const answered = session!.messages.filter((m) => m.role === 'tool').map((m) => m.toolCallId)
    expect(calls).toHaveLength(2)
    expect(answered.sort()).toEqual([...calls].sort())
    // the REPL goes on in the same session
    await say(t, 'and now?')
    await t.waitFor('After the stop.')
    await say(t, '/quit')
    expect((await t.done).code).toBe(0)
    expect(server.requests).toHaveLength(2)
  })

  it('↑ brings back an earlier line (history across turns)', async () => {
    server.enqueue(textReply('One.'), textReply('Two.'))
    const t = startCliOnTerminal(['chat'], { env })
    await say(t, 'say it twice')
    await t.waitFor('One.')
    await prompts(t, 2)
    t.type('\x1b[A')
    await t.waitFor('you> say it twice', t.text().lastIndexOf('One.'))
    t.type('\r')
    await t.waitFor('Two.')
    await say(t, '/quit')
    expect((await t.done).code).toBe(0)
    const users = (
      server.requests[1]!.body as { messages: { role: string; content: string }[] }
    ).messages
      .filter((m) => m.role === 'user')
      .map((m) => m.content)
    expect(users).toEqual(['say it twice', 'say it twice'])
  })

  it('lines pasted at once are each handled in turn, and a last partial one stays typed', async () => {
    server.enqueue(textReply('Pasted answer.'), textReply('Finished answer.'))
    const t = startCliOnTerminal(['chat'], { env })
    await prompts(t, 1)
    t.type('/model m2\r/session\rhello from a paste\r/new\rhalf')
    await t.waitFor('From your next message on, the model is m2.')
    await t.waitFor('No session yet: your next message starts one.')
    await t.waitFor('Pasted answer.')
    await t.waitFor('A new session starts with your next message.')
    await t.waitFor('you> half', t.text().lastIndexOf('A new session starts'))
    t.type(' done\r')
    await t.waitFor('Finished answer.')
    await say(t, '/quit')
    await t.done
    const users = server.requests.map(
      (r) =>
        (r.body as { model: string; messages: { role: string; content: string }[] }).messages
          .filter((m) => m.role === 'user')
          .map((m) => m.content),
    )
    expect(users).toEqual([['hello from a paste'], ['half done']])
    expect((server.requests[0]!.body as { model: string }).model).toBe('m2')
  })

  it('SIGTERM during a turn stops it and ends cairn chat with 143', async () => {
    server.enqueue(slowText(400, 50))
    const t = startCliOnTerminal(['chat'], { env })
    await say(t, 'talk for long')
    await t.waitFor('w2 ')
    // the CLI is the child of `script`
    const pid = Number(execFileSync('pgrep', ['-P', String(t.child.pid)], { encoding: 'utf8' }))
    process.kill(pid, 'SIGTERM')
    expect((await t.done).code).toBe(143)
    const [session] = await storedMessages()
    const answer = session!.messages.find((m) => m.role === 'assistant')
    expect(answer?.content).toMatch(/^w0 w1 w2 /)
  })

  it('Ctrl-C at an empty prompt says how to leave; a second one leaves', async () => {
    const t = startCliOnTerminal(['chat'], { env })
    await prompts(t, 1)
    t.type('some words')
    await t.waitFor('some words')
    t.type('\x03') // drops what was typed
    await prompts(t, 2)
    expect(t.text()).not.toContain('To leave')
    t.type('\x03')
    await t.waitFor('(To leave, press Ctrl-C again or Ctrl-D, or type /quit.)')
    t.type('\x03')
    expect((await t.done).code).toBe(0)
    expect(server.requests).toHaveLength(0)
  })
})
