/**
 * A server's question (elicitation) from the CLI: field by field on a terminal, and the
 * rules without one (the built CLI against a scripted server and server-everything).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { terminalElicitor } from '../../src-main/cli/elicitor'
import { TextRenderer } from '../../src-main/cli/output'
import type { AgentEvent, ElicitationRequestEvent } from '../../src-preload/contract/events'
import { startCliEnv, runCli } from '../support/cli'
import { EVERYTHING, fixture } from '../support/mcp'
import {
  lastToolContent,
  textReply,
  toolCallsReply,
  type ScriptedServer,
} from '../support/openai-server'
import { fakeStream as stream } from '../support/fake-terminal'

const form: ElicitationRequestEvent = {
  type: 'elicitation_request',
  sessionId: 's',
  turnId: 't',
  at: 0,
  requestId: 'q1',
  toolCallId: 'c1',
  server: 'hotel',
  mode: 'form',
  message: 'Where and how long?',
  requestedSchema: {
    type: 'object',
    properties: {
      city: { type: 'string', title: 'City', default: 'Oslo' },
      nights: { type: 'integer', title: 'Nights', minimum: 1, maximum: 30, default: 3 },
      room: {
        type: 'string',
        title: 'Room',
        oneOf: [
          { const: 'r1', title: 'Single' },
          { const: 'r2', title: 'Double' },
        ],
      },
      breakfast: { type: 'boolean', title: 'Breakfast', default: false },
    },
    required: ['city', 'nights', 'room'],
  },
}

/** a question is on the screen, waiting: the terminal shows its end ("> " or ": ") last */
// the terminal may move the cursor after it (ESC [ n G)
const ASKING = new RegExp(`(> |: )(${String.fromCharCode(27)}\\[\\d+G)?$`)

/** types each line once the next question has been put (after what was typed before) */
async function typeLines(
  input: { write(chunk: string): unknown },
  output: { text: () => string },
  lines: string[],
): Promise<void> {
  let seen = 0
  for (const line of lines) {
    while (output.text().length <= seen || !ASKING.test(output.text()))
      await new Promise((r) => setImmediate(r))
    input.write(`${line}\n`)
    seen = output.text().length
  }
}

describe('the terminal elicitor', () => {
  it('asks field by field with the default shown; Enter takes it; a bad value is asked again', async () => {
    const input = stream(true)
    const output = stream(true)
    const pending = terminalElicitor(input, output, () => {}, undefined).request(
      form,
      new AbortController().signal,
    )
    // Answer? → yes; City → Enter (Oslo); Nights → 99 (too many), then 5; Room → 2; Breakfast → y
    await typeLines(input, output, ['y', '', '99', '5', '2', 'y'])
    const answer = await pending
    expect(answer).toEqual({
      action: 'accept',
      content: { city: 'Oslo', nights: 5, room: 'r2', breakfast: true },
    })
    const shown = output.text()
    expect(shown).toContain('hotel asks: Where and how long?')
    expect(shown).toContain('[Oslo]')
    expect(shown).toContain('[3]')
    expect(shown).toContain('2) Double')
    expect(shown).toContain('At most 30.')
  })

  it('declines or cancels when the user says so', async () => {
    const input = stream(true)
    const output = stream(true)
    const pending = terminalElicitor(input, output, () => {}, undefined).request(
      form,
      new AbortController().signal,
    )
    await typeLines(input, output, ['d'])
    expect(await pending).toEqual({ action: 'decline' })
  })

  it('without a terminal: --approve all accepts a form whose required fields have defaults', async () => {
    const out = stream(false)
    const withDefaults = {
      ...form,
      requestedSchema: {
        ...form.requestedSchema,
        required: ['city', 'nights'],
      },
    }
    const accepted = await terminalElicitor(stream(false), out, () => {}, 'all').request(
      withDefaults,
      new AbortController().signal,
    )
    expect(accepted).toEqual({
      action: 'accept',
      content: { city: 'Oslo', nights: 3, breakfast: false },
    })
    // room is required and has no default
    const declined = await terminalElicitor(stream(false), out, () => {}, 'all').request(
      form,
      new AbortController().signal,
    )
    expect(declined).toEqual({ action: 'decline' })
    expect(out.text()).toMatch(/Declined hotel's question: there is no terminal/)
  })
})

describe("a tool's progress on the terminal", () => {
  it('is shown on stderr at most once per tenth of the total, and not at all without a terminal', () => {
    const progress = (n: number): AgentEvent => ({
      type: 'tool_progress',
      sessionId: 's',
      turnId: 't',
      at: 0,
      id: 'c1',
      progress: n,
      total: 40,
      ...(n === 40 ? { message: 'almost\u001b[31m done' } : {}),
    })
    const call: AgentEvent = {
      type: 'tool_call',
      sessionId: 's',
      turnId: 't',
      at: 0,
      id: 'c1',
      name: 'everything__slow',
      server: 'everything',
      tool: 'slow',
      arguments: {},
      rawArguments: '{}',
      readOnly: false,
    }
    const run = (tty: boolean): string => {
      const stdout = stream(tty)
      const stderr = stream(tty)
      const r = new TextRenderer({ stdout, stderr }, { raw: false })
      r.handle(call)
      for (let n = 1; n <= 40; n++) r.handle(progress(n))
      return stderr.text()
    }
    const shown = run(true)
    const lines = shown.split('\n').filter((l) => l.includes('… everything__slow'))
    expect(lines).toHaveLength(11)
    expect(shown).toContain('… everything__slow 4 of 40')
    expect(shown).toContain('… everything__slow 40 of 40: almost done')
    expect(shown).not.toContain('\u001b[31m')
    expect(run(false)).not.toContain('of 40')
  })
})

describe('cairn without a terminal, against real servers', () => {
  let server: ScriptedServer
  let env: NodeJS.ProcessEnv
  let configFile: string
  let stop: () => Promise<void>
  beforeEach(async () => {
    ;({ server, env, configFile, stop } = await startCliEnv({
      prefix: 'cairn-cli-elicit-',
      models: ['m'],
      noLocalServers: false,
      mcpServers: {
        hotel: { command: 'node', args: [fixture('elicit-form.mjs')] },
        everything: { command: 'node', args: [EVERYTHING, 'stdio'] },
      },
    }))
  })
  afterEach(() => stop())

  it('--approve all sends the defaults of a form whose required fields all have them', async () => {
    server.enqueue(
      toolCallsReply([{ name: 'hotel__book', arguments: '{"form":"defaults"}' }]),
      (req) => textReply(`Tool: ${lastToolContent(req)}`),
    )
    const r = await runCli(['--mcp-config', configFile, '--approve', 'all', 'book it'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('"action":"accept"')
    expect(r.stdout).toContain('"city":"Oslo"')
    expect(r.stdout).toContain('"nights":3')
    expect(r.stderr).toMatch(/Answered hotel's question with its defaults/)
  })

  it('declines a form with a required field without default, and says so on stderr', async () => {
    server.enqueue(
      toolCallsReply([{ name: 'hotel__book', arguments: '{"form":"missing"}' }]),
      (req) => textReply(`Tool: ${lastToolContent(req)}`),
    )
    const r = await runCli(['--mcp-config', configFile, '--approve', 'all', 'book it'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('"action":"decline"')
    expect(r.stderr).toMatch(/Declined hotel's question: there is no terminal/)
  })

  it("declines server-everything's form (its name has no default)", async () => {
    server.enqueue(
      toolCallsReply([{ name: 'everything__trigger-elicitation-request', arguments: '{}' }]),
      (req) => textReply(`Tool: ${lastToolContent(req)}`),
    )
    const r = await runCli(['--mcp-config', configFile, '--approve', 'all', 'ask me'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('User declined')
    expect(r.stderr).toMatch(/Declined everything's question/)
  })
})
