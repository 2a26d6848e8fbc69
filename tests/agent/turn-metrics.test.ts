import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileTurnLogger } from '../../src-main/adapters/logs/turn-log'
import { AbortReason } from '../../src-main/core/llm/types'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { dropAfter, httpError, slowText, textReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

interface LoggedResponse {
  usage: { inputTokens: number; outputTokens: number } | null
  latencyMs: number
  timeToFirstTokenMs: number | null
  tokensPerSecond: number | null
  status: string
}

function responses(): LoggedResponse[] {
  const dir = join(h.dir, 'logs', 'sessions', h.sessionId)
  return readdirSync(dir)
    .filter((f) => f.endsWith('-response.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')) as LoggedResponse)
}

const story = 'A cairn is a pile of stones that marks a path across the hills.'

describe('what a turn records: speed and usage', () => {
  it('tokens per second are the output tokens over the time from the first token to the end', async () => {
    h.server.enqueue(
      textReply(story, {
        chunkSize: 8,
        delayMs: 15,
        usage: { prompt_tokens: 11, completion_tokens: 40 },
      }),
    )
    const { outcome, events } = await h.turn('what is a cairn?', {
      logger: new FileTurnLogger(h.dir),
    })
    expect(outcome.reason).toBe('completed')
    const [usage] = ofType(events, 'usage')
    const [log] = responses()
    expect(log?.timeToFirstTokenMs).not.toBeNull()
    const generationMs = log!.latencyMs - log!.timeToFirstTokenMs!
    expect(generationMs).toBeGreaterThan(0)
    expect(usage?.tokensPerSecond).toBeGreaterThan(0)
    expect(usage?.tokensPerSecond).toBe((40 * 1000) / generationMs)
    expect(usage?.timeToFirstTokenMs).toBe(log!.timeToFirstTokenMs)
    expect(log!.tokensPerSecond).toBe(usage!.tokensPerSecond)
  })

  it('a stopped answer keeps its time to first token and its usage, and the session counts it', async () => {
    h.server.enqueue(slowText(40, 10))
    const stop = new AbortController()
    const { outcome, events } = await h.turn('go on', {
      signal: stop.signal,
      logger: new FileTurnLogger(h.dir),
      onEvent: (e) => {
        if (e.type === 'text_delta' && e.text.startsWith('w4 ')) stop.abort(new AbortReason('stop'))
      },
    })
    expect(outcome.reason).toBe('aborted')
    const last = h.store.listMessages(h.sessionId).at(-1)!
    expect(last).toMatchObject({ role: 'assistant', status: 'stopped' })
    expect(last.usage?.outputTokens).toBeGreaterThan(0)
    const [usage] = ofType(events, 'usage')
    expect(usage).toMatchObject({
      outputTokens: last.usage!.outputTokens,
      inputTokens: last.usage!.inputTokens,
      estimated: true,
    })
    expect(outcome.usage.outputTokens).toBe(last.usage!.outputTokens)
    const [log] = responses()
    expect(log).toMatchObject({
      status: 'stopped',
      usage: { outputTokens: last.usage!.outputTokens },
    })
    expect(log!.timeToFirstTokenMs).toBe(usage!.timeToFirstTokenMs)
    expect(log!.timeToFirstTokenMs).toBeGreaterThanOrEqual(0)
    expect(log!.tokensPerSecond).toBe(
      (last.usage!.outputTokens * 1000) / (log!.latencyMs - log!.timeToFirstTokenMs!),
    )
    expect(usage!.tokensPerSecond).toBe(log!.tokensPerSecond)
    expect(h.store.getSession(h.sessionId)?.usage).toEqual({
      inputTokens: last.usage!.inputTokens,
      outputTokens: last.usage!.outputTokens,
    })
  })

  it('an interrupted answer counts in the session totals', async () => {
    h.server.enqueue(
      textReply('Hello there.', { usage: { prompt_tokens: 5, completion_tokens: 3 } }),
    )
    await h.turn('hi')
    h.server.enqueue(dropAfter(textReply(story, { chunkSize: 5 }), 4))
    h.server.setFallback(httpError(502, 'bad gateway'))
    const { outcome } = await h.turn('tell me more', { limits: { maxRetries: 1 } })
    expect(outcome.reason).toBe('error')
    const last = h.store.listMessages(h.sessionId).at(-1)!
    expect(last).toMatchObject({ role: 'assistant', status: 'interrupted' })
    expect(last.usage?.outputTokens).toBeGreaterThan(0)
    expect(h.store.getSession(h.sessionId)?.usage).toEqual({
      inputTokens: 5 + last.usage!.inputTokens,
      outputTokens: 3 + last.usage!.outputTokens,
    })
  })
})
