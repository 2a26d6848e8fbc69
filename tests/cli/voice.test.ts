/**
 * Voice input in the CLI with the scripted speech-to-text server: `/voice start` in
 * `cairn chat` on a pseudo-terminal sends each sentence as a turn, in order, in the chat's
 * session; Ctrl-C stops the turn and drops the sentences waiting; a server that dies is
 * said; `cairn --voice` listens headless until SIGINT and closes the server's session.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCliEnv, startCli } from '../support/cli'
import { waitFor } from '../support/mcp'
import { slowText, textReply, type ScriptedServer } from '../support/openai-server'
import { startCliOnTerminal, type TerminalCli } from '../support/pty-cli'
import { sttServer, type SttScript, type SttServer } from '../support/stt'

let server: ScriptedServer
let dir: string
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, dir, env, stop } = await startCliEnv({ prefix: 'cairn-cli-voice-', models: ['m'] }))
})
afterEach(() => stop())

/** the scripted server in an --mcp-config file */
function withStt(script: SttScript): { stt: SttServer; config: string } {
  const stt = sttServer(dir, script)
  const config = join(dir, 'mcp.json')
  writeFileSync(config, JSON.stringify({ mcpServers: { stt: stt.config } }))
  return { stt, config }
}

type Body = { messages: { role: string; content: unknown }[] }
const userTexts = (i: number): unknown[] =>
  (server.requests[i]?.body as Body).messages.filter((m) => m.role === 'user').map((m) => m.content)

/** waits for the prompt shown after everything on the terminal so far, then types */
async function typeAtPrompt(t: TerminalCli, line: string): Promise<void> {
  await t.waitFor(/you> $/, Math.max(0, t.text().lastIndexOf('\n')))
  t.type(`${line}\r`)
}

describe('/voice in cairn chat', () => {
  it('sends two sentences as two turns, in order, in the same session; /voice stop closes it', async () => {
    const { stt, config } = withStt({
      steps: [
        { partial: 'Hello th' },
        { final: 'Hello there.' },
        { partial: 'Second sen' },
        { final: 'Second sentence.' },
      ],
    })
    server.enqueue(slowText(5, 50), textReply('Answer two.'))
    const t = startCliOnTerminal(['chat', '--mcp-config', config], { env })
    await typeAtPrompt(t, '/voice start microphone')
    await t.waitFor('Listening (microphone) with stt')
    await t.waitFor('Answer two.')
    expect(server.requests).toHaveLength(2)
    expect(userTexts(0)).toEqual(['Hello there.'])
    expect(userTexts(1)).toEqual(['Hello there.', 'Second sentence.'])
    const shown = t.text()
    expect(shown.indexOf('\nvoice> Hello there.\n')).toBeGreaterThan(0)
    expect(shown.indexOf('\nvoice> Hello there.\n')).toBeLessThan(
      shown.indexOf('\nvoice> Second sentence.\n'),
    )
    await typeAtPrompt(t, '/voice status')
    await t.waitFor('Listening (microphone) with stt.')
    await typeAtPrompt(t, '/voice stop')
    await t.waitFor('Voice input is off.')
    await waitFor(() => stt.calls().some((c) => c.call === 'stop'))
    expect(stt.calls()[0]).toMatchObject({ call: 'start', source: 'microphone' })
    t.type('\x04')
    expect((await t.done).code).toBe(0)
  })

  it('Ctrl-C stops the turn and drops the sentence waiting; later ones are still sent', async () => {
    const cue = join(dir, 'third')
    const { stt, config } = withStt({
      steps: [{ final: 'First.' }, { final: 'Second.' }, { waitFile: cue }, { final: 'Third.' }],
    })
    server.enqueue(slowText(400, 50), textReply('Third answer.'))
    const t = startCliOnTerminal(['chat', '--mcp-config', config], { env })
    await typeAtPrompt(t, '/voice start')
    await t.waitFor('(heard while answering; waits) “Second.”')
    await t.waitFor('w3 ')
    t.type('\x03')
    await t.waitFor('Stopping the answer')
    await t.waitFor(/you> $/, t.text().lastIndexOf('Stopping the answer'))
    t.type('/voice status\r')
    await t.waitFor(/Listening with stt\.\n/)
    expect(t.text()).not.toContain('wait for the answer: “Second.”')
    writeFileSync(cue, '')
    await t.waitFor('Third answer.')
    expect(server.requests).toHaveLength(2)
    expect(userTexts(1)).toEqual(['First.', 'Third.'])
    expect(t.text()).not.toContain('\nvoice> Second.\n')
    await t.waitFor(/you> $/, t.text().lastIndexOf('Third answer.'))
    expect(stt.calls().some((c) => c.call === 'stop')).toBe(false)
    t.type('\x04')
    expect((await t.done).code).toBe(0)
    // leaving closed the server's session
    expect(stt.calls().filter((c) => c.call === 'stop')).toHaveLength(1)
  })

  it('a voice server that dies is said, and the prompt goes on', async () => {
    const cue = join(dir, 'crash')
    const { config } = withStt({ steps: [{ waitFile: cue }, { crash: true }] })
    const t = startCliOnTerminal(['chat', '--mcp-config', config], { env })
    await typeAtPrompt(t, '/voice start')
    await t.waitFor('Listening with stt')
    writeFileSync(cue, '')
    await t.waitFor('Voice input stopped: the voice server "stt" failed')
    await typeAtPrompt(t, '/voice status')
    await t.waitFor('Voice input is off. Voice input stopped')
    t.type('/quit\r')
    expect((await t.done).code).toBe(0)
  })

  it('cairn chat --voice listens from the start', async () => {
    const { config } = withStt({ steps: [{ final: 'Straight away.' }] })
    server.enqueue(textReply('Heard you.'))
    const t = startCliOnTerminal(['chat', '--voice', '--mcp-config', config], { env })
    await t.waitFor('Listening with stt')
    await t.waitFor('Heard you.')
    expect(userTexts(0)).toEqual(['Straight away.'])
    await t.waitFor(/you> $/, t.text().lastIndexOf('Heard you.'))
    t.type('/quit\r')
    expect((await t.done).code).toBe(0)
  })

  it('without a voice server it says so', async () => {
    const t = startCliOnTerminal(['chat'], { env })
    await typeAtPrompt(t, '/voice start')
    await t.waitFor('No voice server: no running MCP server offers the tools')
    t.type('/quit\r')
    expect((await t.done).code).toBe(0)
  })
})

describe('cairn --voice', () => {
  it('listens headless, runs each sentence as a turn until SIGINT, then closes the session', async () => {
    const { stt, config } = withStt({
      steps: [{ partial: 'One se' }, { final: 'One sentence.' }, { final: 'Two sentences.' }],
    })
    server.enqueue(textReply('Answer one.'), textReply('Answer two.'))
    const run = startCli(['--voice', '--mcp-config', config], { env })
    await run.waitForStdout('Answer two.')
    run.child.kill('SIGINT')
    const r = await run.done
    expect(r.code).toBe(130)
    expect(r.stdout).toBe('Answer one.\nAnswer two.\n')
    expect(r.stderr).toContain('Listening with stt')
    expect(r.stderr).toContain('hearing: One se')
    expect(userTexts(1)).toEqual(['One sentence.', 'Two sentences.'])
    expect(stt.calls().filter((c) => c.call === 'stop')).toHaveLength(1)
  })

  it('refuses a prompt (words or --mcp-prompt) with exit code 2 before it starts anything', async () => {
    const { stt, config } = withStt({ steps: [{ final: 'Unheard.' }] })
    for (const args of [['hello there'], ['--mcp-prompt', 'stt:p']]) {
      const r = await startCli(['--voice', '--mcp-config', config, ...args], { env }).done
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('cairn: --voice takes no prompt; say it once it listens')
    }
    expect(stt.calls()).toEqual([])
    expect(server.requests).toHaveLength(0)
  })

  it('exits soon after SIGTERM even when the voice server never answers stt_stop_session', async () => {
    const { stt, config } = withStt({ hangOnStop: true, steps: [{ partial: 'Hel' }] })
    const run = startCli(['--voice', '--mcp-config', config], { env })
    await run.waitForStderr('hearing: Hel')
    const sent = Date.now()
    run.child.kill('SIGTERM')
    const r = await run.done
    // the courtesy call is given a second or two, not the call's whole timeout
    expect(Date.now() - sent).toBeLessThan(5_000)
    expect(r.code).toBe(143)
    expect(stt.calls().filter((c) => c.call === 'stop')).toHaveLength(1)
    expect(r.stderr).toMatch(/did not close its session.*did not answer within/)
  })

  it('ends with exit code 1 when the voice server dies', async () => {
    const { config } = withStt({ steps: [{ final: 'Hi.' }, { waitPolls: 2 }, { crash: true }] })
    server.enqueue(textReply('Hello.'))
    const r = await startCli(['--voice', '--mcp-config', config], { env }).done
    expect(r.code).toBe(1)
    expect(r.stdout).toBe('Hello.\n')
    expect(r.stderr).toContain('Voice input stopped: the voice server "stt" failed')
  })
})
