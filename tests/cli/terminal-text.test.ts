import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  ControlStripper,
  guardStream,
  jsonLine,
  stripControls,
  writeOwn,
} from '../../src-main/cli/terminal-text'
import { TextRenderer } from '../../src-main/cli/output'
import type { AgentEvent } from '../../src-preload/contract/events'
import { startCliEnv, runCli } from '../support/cli'
import { fakeStream as stream } from '../support/fake-terminal'
import { textReply, toolCallsReply, type ScriptedServer } from '../support/openai-server'

const OSC52 = '\x1b]52;c;cm0gLXJmIH4K\x07' // writes "rm -rf ~" to the clipboard
const CLEAR = '\x1b[2J\x1b[H' // clears the screen, cursor home

/** no escape, C0 (but tab and newline), DEL, C1 or bidi override is left */
function isClean(s: string): boolean {
  for (const ch of s) {
    const c = ch.codePointAt(0)!
    if (c === 0x09 || c === 0x0a) continue
    if (c < 0x20 || (c >= 0x7f && c <= 0x9f)) return false
    if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069)) return false
  }
  return true
}

describe('stripping control sequences', () => {
  it('removes OSC, CSI, DCS/APC strings, two-character escapes, C1 and stray controls', () => {
    expect(stripControls(`before${OSC52}after`)).toBe('beforeafter')
    expect(stripControls(`a\x1b]0;title\x1b\\b`)).toBe('ab')
    expect(stripControls(`${CLEAR}x\x1b[31mred\x1b[0m`)).toBe('xred')
    expect(stripControls('a\x1bPq#0;2;0;0;0\x1b\\b\x1b_apc\x1b\\c')).toBe('abc')
    expect(stripControls('reset\x1bc done \x1b(B ok')).toBe('reset done  ok')
    expect(stripControls('8-bit \x9b2J csi, \x9d52;c;x\x9c osc')).toBe('8-bit  csi,  osc')
    expect(stripControls('over\rwrite, back\b\b, bell\x07, del\x7f')).toBe(
      'overwrite, back, bell, del',
    )
    expect(stripControls('rm \u202e-rf\u202c')).toBe('rm -rf')
  })

  it('keeps text, tabs, newlines and every non-Latin script as they are', () => {
    const text = 'Tabs\tand\nlines; é ß 中文 日本語 한국어 ไทย العربية 🙂 — “quotes”'
    expect(stripControls(text)).toBe(text)
  })

  it('an unterminated string sequence ends at the line end, and the text after it shows', () => {
    expect(stripControls('a\x1b]52;c;abc\nb')).toBe('a\nb')
    expect(stripControls('a\x1b[12\nb')).toBe('a\nb')
  })

  it('finds sequences split across chunks, wherever the split falls', () => {
    const text = `one ${OSC52} two ${CLEAR} three \x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\ four`
    const expected = stripControls(text)
    expect(expected).toBe('one  two  three link four')
    for (let cut = 0; cut <= text.length; cut++) {
      const s = new ControlStripper()
      expect(s.push(text.slice(0, cut)) + s.push(text.slice(cut))).toBe(expected)
    }
    const byChar = new ControlStripper()
    expect([...text].map((c) => byChar.push(c)).join('')).toBe(expected)
  })

  it('gets through hostile input of a megabyte in one pass and leaves nothing behind', () => {
    const hostile = `${'\x1b['.repeat(100_000)}${'\x1b]'.repeat(100_000)}${'\x9b1;'.repeat(100_000)}end`
    const out = stripControls(hostile)
    expect(isClean(out)).toBe(true)
  })

  it('JSON lines escape C1 and bidi controls, and still parse to the same value', () => {
    const value = { text: 'a\x9b2Jb\u202ec\x1b' }
    const line = jsonLine(value)
    expect(isClean(line)).toBe(true)
    expect(JSON.parse(line)).toEqual(value)
  })
})

describe('a guarded stream', () => {
  it('strips what is written through it, strings and bytes alike, but not what the CLI writes itself', () => {
    const raw = stream(true)
    const guarded = guardStream(raw)
    expect(guarded.isTTY).toBe(true)
    guarded.write(`text${OSC52}`)
    guarded.write(Buffer.from(`bytes${CLEAR}`))
    writeOwn(guarded, '\x1b[2m')
    guarded.write('dim\n')
    expect(raw.text()).toBe('textbytes\x1b[2mdim\n')
  })
})

function ev(e: Record<string, unknown>): AgentEvent {
  return { sessionId: 's', turnId: 't', at: 0, ...e } as AgentEvent
}

describe('the text renderer', () => {
  it('strips model text, tool names, arguments, results and notices, and --raw keeps them', () => {
    const events = [
      ev({ type: 'text_delta', text: `Here${OSC52.slice(0, 6)}` }),
      ev({ type: 'text_delta', text: `${OSC52.slice(6)} it is${CLEAR}.` }),
      ev({
        type: 'tool_call',
        id: 'c',
        name: `evil\x1b[2Jtool`,
        server: 's',
        tool: 't',
        arguments: {},
        rawArguments: `{"a":"\x1b]52;c;eA==\x07"}`,
        readOnly: false,
      }),
      ev({
        type: 'tool_result',
        id: 'c',
        ok: true,
        content: `done${CLEAR}`,
        durationMs: 1,
        synthetic: false,
      }),
      ev({ type: 'notice', level: 'warning', message: `server says \x1bc` }),
      ev({ type: 'turn_end', reason: 'completed' }),
    ]
    const stdout = stream(true)
    const stderr = stream(true)
    const r = new TextRenderer({ stdout, stderr })
    for (const e of events) r.handle(e)
    expect(stdout.text()).toBe('Here it is.\n')
    expect(isClean(stderr.text())).toBe(true)
    expect(stderr.text()).toContain('→ evil')
    expect(stderr.text()).toContain('done')

    const rawOut = stream(true)
    const rawErr = stream(true)
    const raw = new TextRenderer({ stdout: rawOut, stderr: rawErr }, { raw: true })
    for (const e of events) raw.handle(e)
    expect(rawOut.text()).toContain(OSC52)
    expect(rawErr.text()).toContain(CLEAR)
  })
})

describe('the text renderer across messages', () => {
  it('a sequence left open by one message does not swallow the next one', () => {
    const stdout = stream(false)
    const stderr = stream(false)
    const r = new TextRenderer({ stdout, stderr })
    r.handle(ev({ type: 'text_delta', text: 'First \x1b]52;c;' }))
    r.handle(
      ev({
        type: 'message_saved',
        messageId: 'm',
        messageSeq: 2,
        role: 'assistant',
        status: 'complete',
      }),
    )
    r.handle(ev({ type: 'text_delta', text: 'Second answer.' }))
    r.handle(ev({ type: 'turn_end', reason: 'completed' }))
    expect(stdout.text()).toBe('First Second answer.\n')
  })
})

describe('the cairn command', () => {
  let server: ScriptedServer
  let env: NodeJS.ProcessEnv
  let stop: () => Promise<void>
  beforeEach(async () => {
    ;({ server, env, stop } = await startCliEnv({
      prefix: 'cairn-cli-',
      models: ['m1'],
      modelEnv: false,
    }))
  })
  afterEach(() => stop())

  it('prints no escape sequence from the model, a tool name or stored sessions; --raw prints them', async () => {
    server.enqueue(
      toolCallsReply([{ id: 'c1', name: `x\x1b]52;c;eA==\x07y`, arguments: '{}' }]),
      textReply(`Answer${OSC52} with${CLEAR} tricks.`, { chunkSize: 3 }),
    )
    const args = ['--base-url', server.baseURL, '--model', 'm1', '--approve', 'all']
    const r = await runCli([...args, 'hi'], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('Answer with tricks.\n')
    expect(isClean(r.stderr)).toBe(true)
    expect(r.stderr).toContain('xy')

    const shown = await runCli(['sessions', 'show', r.stderr.match(/session (\S+)/i)![1]!], {
      env,
    })
    expect(shown.code).toBe(0)
    expect(shown.stdout).toContain('Answer with tricks.')
    expect(isClean(shown.stdout)).toBe(true)

    server.enqueue(textReply(`Raw${OSC52}.`))
    const raw = await runCli([...args, '--raw', 'again'], { env })
    expect(raw.stdout).toBe(`Raw${OSC52}.\n`)
  })
})
