import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { VoiceEvent } from '../../src-preload/contract/voice'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import type { Clock } from '../../src-main/core/ports'
import { VoiceRuntime, type VoiceTurns } from '../../src-main/services/voice/voice-runtime'
import { waitFor } from '../support/mcp'
import { sttServer, type SttScript } from '../support/stt'

let dir: string
let manager: McpManager
let voice: VoiceRuntime | null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-voice-'))
  manager = new McpManager({
    launchStdio: stdioLauncher(),
    clientVersion: 'test',
    restartBaseMs: 50,
  })
  voice = null
})
afterEach(async () => {
  await voice?.shutdown()
  await manager.shutdown()
  rmSync(dir, { recursive: true, force: true })
})

/** Turns run by the test: each stays running until the test ends it. */
class TestTurns implements VoiceTurns {
  readonly sent: { text: string; sessionId: string | null }[] = []
  private readonly running = new Map<string, () => void>()
  private readonly waiters: (() => void)[] = []
  autoEnd = true

  async send(text: string, sessionId: string | null) {
    const id = sessionId ?? 'chat-1'
    this.sent.push({ text, sessionId })
    let end!: () => void
    const ended = new Promise<void>((r) => (end = r))
    this.running.set(id, () => {
      this.running.delete(id)
      end()
      this.waiters.splice(0).forEach((w) => w())
    })
    if (this.autoEnd) this.endTurn(id)
    return { sessionId: id, turnId: `turn-${this.sent.length}`, ended }
  }
  /** a turn the user sent themselves */
  userTurn(sessionId: string): void {
    this.running.set(sessionId, () => {
      this.running.delete(sessionId)
      this.waiters.splice(0).forEach((w) => w())
    })
  }
  endTurn(sessionId: string): void {
    this.running.get(sessionId)?.()
  }
  isRunning(sessionId: string): boolean {
    return this.running.has(sessionId)
  }
  idle(sessionId: string): Promise<void> {
    return this.isRunning(sessionId) ? new Promise((r) => this.waiters.push(r)) : Promise.resolve()
  }
}

/** A clock whose waits end at once and are recorded. */
function recordingClock(): Clock & { waits: number[] } {
  const waits: number[] = []
  return {
    waits,
    now: () => Date.now(),
    sleep: (ms, signal) => {
      waits.push(ms)
      return new Promise((resolve, reject) => {
        if (signal?.aborted) return reject(new Error('aborted'))
        setImmediate(resolve)
      })
    },
  }
}

function setup(
  script: SttScript,
  opts: { finalUtterance?: 'send' | 'compose'; clock?: Clock; name?: string } = {},
) {
  const stt = sttServer(dir, script, opts.name ?? 'stt')
  manager.apply({ [opts.name ?? 'stt']: stt.config })
  const turns = new TestTurns()
  const events: VoiceEvent[] = []
  voice = new VoiceRuntime(
    {
      sources: () => manager.sources(),
      settings: () => ({ server: null, finalUtterance: opts.finalUtterance ?? 'send' }),
      turns,
      ...(opts.clock ? { clock: opts.clock } : {}),
    },
    (e) => events.push(e),
  )
  return { stt, turns, events, voice }
}

const finals = (events: VoiceEvent[], disposition: string) =>
  events.flatMap((e) => (e.type === 'final' && e.disposition === disposition ? [e.text] : []))
const partials = (events: VoiceEvent[]) =>
  events.flatMap((e) => (e.type === 'partial' ? [e.text] : []))

const TWO_SENTENCES: SttScript['steps'] = [
  { partial: 'What is' },
  { partial: 'What is a cairn' },
  { final: 'What is a cairn?' },
  { waitPolls: 1 },
  { partial: 'Who builds' },
  { final: 'Who builds them?' },
]

describe('voice runtime with the scripted STT server', () => {
  for (const shape of ['structured', 'text'] as const) {
    it(`reads ${shape} results: partials in order, each final sent as its own turn, in order`, async () => {
      const { stt, turns, events, voice } = setup({ shape, steps: TWO_SENTENCES })
      const status = await voice.start({ source: 'microphone' })
      expect(status).toMatchObject({ listening: true, server: 'stt', source: 'microphone' })
      await waitFor(() => turns.sent.length === 2, 10_000, 'two sends')
      expect(turns.sent).toEqual([
        { text: 'What is a cairn?', sessionId: null },
        // the first final made the chat: the second goes to it
        { text: 'Who builds them?', sessionId: 'chat-1' },
      ])
      // of a run of partials in one answer only the last is passed on
      expect(partials(events)).toEqual(['What is a cairn', 'Who builds'])
      expect(finals(events, 'sent')).toEqual(['What is a cairn?', 'Who builds them?'])
      // the partial of an utterance comes before its final
      const order = events
        .filter((e) => e.type === 'partial' || e.type === 'final')
        .map((e) => (e.type === 'partial' ? `p:${e.text}` : `f:${e.text}`))
      expect(order.indexOf('p:What is a cairn')).toBeLessThan(order.indexOf('f:What is a cairn?'))
      expect(order.indexOf('f:What is a cairn?')).toBeLessThan(order.indexOf('p:Who builds'))
      expect(stt.calls()[0]).toMatchObject({ call: 'start', source: 'microphone' })
      // the cursor the server gave is passed back as it came
      const polls = stt.calls().filter((c) => c.call === 'poll')
      expect(polls[0]!.cursor).toBeUndefined()
      expect(
        polls.slice(1).every((p) => typeof (p.cursor as { at?: number }).at === 'number'),
      ).toBe(true)
    })
  }

  it('queues finals while a turn runs in the chat and sends them after it, in order', async () => {
    const cue = join(dir, 'speak')
    const { turns, events, voice } = setup({
      steps: [{ waitFile: cue }, { final: 'First.' }, { final: 'Second.' }, { final: 'Third.' }],
    })
    turns.userTurn('chat-9')
    await voice.start({ sessionId: 'chat-9' })
    writeFileSync(cue, '')
    await waitFor(() => finals(events, 'queued').length === 3, 10_000, 'three queued')
    expect(turns.sent).toEqual([])
    expect(voice.status().queued).toEqual(['First.', 'Second.', 'Third.'])
    turns.autoEnd = false
    turns.endTurn('chat-9')
    await waitFor(() => turns.sent.length === 1, 10_000, 'the first send')
    // one at a time: the second waits for the first's turn
    expect(voice.status().queued).toEqual(['Second.', 'Third.'])
    turns.endTurn('chat-9')
    await waitFor(() => turns.sent.length === 2, 10_000, 'the second send')
    turns.endTurn('chat-9')
    await waitFor(() => turns.sent.length === 3, 10_000, 'the third send')
    expect(turns.sent.map((s) => s.text)).toEqual(['First.', 'Second.', 'Third.'])
    expect(turns.sent.every((s) => s.sessionId === 'chat-9')).toBe(true)
  })

  it('clearQueue (the user stopped the turn) drops the finals waiting for it', async () => {
    const cue = join(dir, 'speak')
    const { turns, events, voice } = setup({
      steps: [{ waitFile: cue }, { final: 'One.' }, { final: 'Two.' }],
    })
    turns.userTurn('chat-9')
    await voice.start({ sessionId: 'chat-9' })
    writeFileSync(cue, '')
    await waitFor(() => finals(events, 'queued').length === 2, 10_000, 'two queued')
    voice.clearQueue()
    expect(voice.status().queued).toEqual([])
    turns.endTurn('chat-9')
    // still listening, and nothing of what was dropped is sent
    await new Promise((r) => setTimeout(r, 300))
    expect(voice.status().listening).toBe(true)
    expect(turns.sent).toEqual([])
  })

  it('leaves finals in the composer when the settings say so', async () => {
    const { turns, events, voice } = setup(
      { steps: [{ partial: 'Dra' }, { final: 'Draft this.' }] },
      { finalUtterance: 'compose' },
    )
    await voice.start()
    await waitFor(() => finals(events, 'composer').length === 1, 10_000, 'the final')
    expect(finals(events, 'composer')).toEqual(['Draft this.'])
    expect(turns.sent).toEqual([])
  })

  it('ends voice mode with a clear message when the server crashes, and polls no more', async () => {
    const { stt, turns, events, voice } = setup({
      steps: [{ final: 'Before the crash.' }, { waitPolls: 2 }, { crash: true }],
    })
    await voice.start()
    await waitFor(() => voice.status().error !== null, 15_000, 'the failure')
    const status = voice.status()
    expect(status.listening).toBe(false)
    expect(status.error).toMatch(/Voice input stopped: the voice server "stt" failed/)
    expect(events.at(-1)).toMatchObject({ type: 'status', status: { listening: false } })
    expect(turns.sent.map((s) => s.text)).toEqual(['Before the crash.'])
    // the connection restarts the server; voice mode does not come back to it
    await waitFor(() => manager.get('stt')?.status() === 'ready', 15_000, 'the restart')
    const before = stt.calls().length
    await new Promise((r) => setTimeout(r, 500))
    expect(stt.calls().length).toBe(before)
    expect(stt.calls().filter((c) => c.call === 'start')).toHaveLength(1)
  })

  it('ends voice mode with the reason when the server closes the session', async () => {
    const { stt, voice } = setup({ steps: [{ final: 'Last words.' }, { close: true }] })
    await voice.start()
    await waitFor(() => voice.status().error !== null, 15_000, 'the end')
    expect(voice.status()).toMatchObject({ listening: false })
    expect(voice.status().error).toMatch(/stt_get_updates failed: unknown session stt-1/)
    // no further polls after the refused one
    const count = stt.calls().length
    await new Promise((r) => setTimeout(r, 400))
    expect(stt.calls().length).toBe(count)
  })

  it('closes the session on the server when stopped and at shutdown (no orphan sessions)', async () => {
    const { stt, voice } = setup({ steps: [{ partial: 'hm' }] })
    await voice.start()
    await voice.stop()
    expect(voice.status().listening).toBe(false)
    await voice.start({ source: 'loopback' })
    await voice.shutdown()
    const starts = stt.calls().filter((c) => c.call === 'start')
    const stops = stt.calls().filter((c) => c.call === 'stop')
    expect(starts.map((c) => c.source)).toEqual([undefined, 'loopback'])
    expect(stops.map((c) => c.session_id)).toEqual(starts.map((c) => c.session_id))
    // and polling ended with it
    const count = stt.calls().length
    await new Promise((r) => setTimeout(r, 400))
    expect(stt.calls().length).toBe(count)
    await expect(voice.start()).rejects.toThrow(/shutting down/)
  })

  it('backs off while nothing is said, from 150 ms up to 2 s, and starts again at 150 ms on events', async () => {
    const clock = recordingClock()
    const { stt, voice } = setup(
      { steps: [{ final: 'a' }, { waitPolls: 6 }, { final: 'b' }] },
      { clock },
    )
    await voice.start()
    await waitFor(() => clock.waits.length >= 9, 10_000, 'nine polls')
    await voice.stop()
    // poll 1 brings "a"; polls 2–6 bring nothing; poll 7 brings "b"; then idle again
    expect(clock.waits.slice(0, 9)).toEqual([150, 150, 300, 600, 1200, 2000, 150, 150, 300])
    expect(stt.calls().filter((c) => c.call === 'poll').length).toBeGreaterThanOrEqual(9)
  })
})

describe('finding the voice server', () => {
  it('says so when no server offers the voice tools', async () => {
    const turns = new TestTurns()
    voice = new VoiceRuntime(
      { sources: () => [], settings: () => ({ server: null, finalUtterance: 'send' }), turns },
      () => {},
    )
    await expect(voice.start()).rejects.toThrow(/No voice server: no running MCP server offers/)
  })

  it('asks for a choice when several qualify, and uses the one the settings name', async () => {
    const a = sttServer(dir, { steps: [] }, 'alpha')
    const b = sttServer(dir, { steps: [] }, 'beta')
    manager.apply({ alpha: a.config, beta: b.config })
    let server: string | null = null
    voice = new VoiceRuntime(
      {
        sources: () => manager.sources(),
        settings: () => ({ server, finalUtterance: 'send' }),
        turns: new TestTurns(),
      },
      () => {},
    )
    await expect(voice.start()).rejects.toThrow(
      /Several MCP servers offer voice input \(alpha, beta\)/,
    )
    server = 'beta'
    expect(await voice.start()).toMatchObject({ listening: true, server: 'beta' })
    expect(a.calls()).toEqual([])
    expect(b.calls()[0]).toMatchObject({ call: 'start' })
    await voice.stop()
    server = 'gamma'
    await expect(voice.start()).rejects.toThrow(/"gamma" chosen in the settings is not configured/)
  })
})

describe('a voice server that floods (issue 25, case 5)', () => {
  const size = (events: VoiceEvent[]): number =>
    events.reduce((n, e) => n + JSON.stringify(e).length, 0)

  it('one answer of 2 000 finals while a turn runs: at most 10 wait, the rest are dropped and said', async () => {
    const cue = join(dir, 'speak')
    const flood = Array.from({ length: 2000 }, (_, i) => ({ final: `Sentence number ${i}.` }))
    const { turns, events, voice } = setup({ steps: [{ waitFile: cue }, ...flood] })
    turns.userTurn('chat-9')
    await voice.start({ sessionId: 'chat-9' })
    writeFileSync(cue, '')
    await waitFor(
      () => events.some((e) => e.type === 'error' && /dropped/.test(e.message)),
      10_000,
      'the drop said',
    )
    expect(voice.status().queued).toHaveLength(10)
    expect(voice.status().queued[0]).toBe('Sentence number 0.')
    const said = events.find((e) => e.type === 'error' && /dropped/.test(e.message))
    expect(said).toMatchObject({ message: expect.stringMatching(/1990 sentences .*dropped/) })
    // one status for the whole answer, not one (with the whole queue) per final
    expect(events.filter((e) => e.type === 'status').length).toBeLessThan(5)
    expect(size(events)).toBeLessThan(20_000)
    // the turn ends: the ten are sent, one after another, and nothing more
    turns.endTurn('chat-9')
    await waitFor(() => turns.sent.length === 10, 10_000, 'ten sends')
    await new Promise((r) => setTimeout(r, 200))
    expect(turns.sent).toHaveLength(10)
  })

  it('200 long finals, one a poll, with partials: what reaches the window stays small', async () => {
    const cue = join(dir, 'speak')
    const long = 'word '.repeat(1000)
    const steps = Array.from({ length: 200 }, (_, i) => [
      { partial: `${long}${i}` },
      { partial: `${long}${i} more` },
      { final: `${long}${i}.` },
      { waitPolls: 1 },
    ]).flat()
    const { stt, turns, events, voice } = setup(
      { steps: [{ waitFile: cue }, ...steps] },
      { clock: recordingClock() },
    )
    turns.userTurn('chat-9')
    await voice.start({ sessionId: 'chat-9' })
    writeFileSync(cue, '')
    await waitFor(
      () => stt.calls().filter((c) => c.call === 'poll').length > 210,
      20_000,
      'the whole script heard',
    )
    // on main this was about 100 MB: the whole queue in a status event per final
    expect(voice.status().queued).toHaveLength(10)
    expect(size(events)).toBeLessThan(1_000_000)
    // the drops are said, not once a poll
    const said = events.filter((e) => e.type === 'error')
    expect(said.length).toBeGreaterThan(0)
    expect(said.length).toBeLessThan(20)
    await voice.stop()
    const total = events
      .filter((e) => e.type === 'error')
      .map((e) => Number(/(\d+) sentences?/.exec((e as { message: string }).message)?.[1] ?? 0))
      .reduce((a, b) => a + b, 0)
    expect(total).toBe(190)
  })
})
