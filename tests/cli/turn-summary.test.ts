/** The CLI's last stderr line: the turn's tokens, how fast the model wrote, the first token's wait. */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { UsageEvent } from '../../src-preload/contract/events'
import { TurnSummary } from '../../src-main/cli/turn-summary'
import { startCliEnv, runCli } from '../support/cli'
import { textReply, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let dataDir: string
let env: NodeJS.ProcessEnv
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, dataDir, env, stop } = await startCliEnv({
    prefix: 'cairn-cli-',
    models: ['m1'],
    modelEnv: false,
  }))
})
afterEach(() => stop())

function usage(over: Partial<UsageEvent>): UsageEvent {
  return {
    type: 'usage',
    sessionId: 's',
    turnId: 't',
    at: 0,
    inputTokens: 0,
    outputTokens: 0,
    estimated: false,
    turnInputTokens: 0,
    turnOutputTokens: 0,
    timeToFirstTokenMs: null,
    tokensPerSecond: null,
    ...over,
  }
}

describe('the summary line', () => {
  it('prints the tokens, the rate the turn log records and the time to the first token', async () => {
    server.enqueue(
      textReply('Stones mark the way over the pass.', {
        chunkSize: 6,
        delayMs: 10,
        usage: { prompt_tokens: 12, completion_tokens: 30 },
      }),
    )
    const r = await runCli(['--base-url', server.baseURL, '--model', 'm1', 'hi'], { env })
    expect(r.code).toBe(0)
    const line = r.stderr.trim().split('\n').at(-1)!
    const m = /^12 tokens in, 30 out · ([\d.]+) tokens\/s · first token after ([\d.]+) s$/.exec(
      line,
    )
    expect(m, line).not.toBeNull()
    const sessionDir = readdirSync(join(dataDir, 'logs', 'sessions'))[0]!
    const log = JSON.parse(
      readFileSync(join(dataDir, 'logs', 'sessions', sessionDir, 'turn-001-response.json'), 'utf8'),
    ) as { latencyMs: number; timeToFirstTokenMs: number; tokensPerSecond: number }
    expect(log.tokensPerSecond).toBe((30 * 1000) / (log.latencyMs - log.timeToFirstTokenMs))
    expect(m![1]).toBe(log.tokensPerSecond.toFixed(1))
    expect(m![2]).toBe((log.timeToFirstTokenMs / 1000).toFixed(2))
  })

  it('a turn of several calls: output tokens over the summed generation time, the first call’s wait', () => {
    const s = new TurnSummary()
    expect(s.line()).toBeNull()
    // 40 tokens at 20/s (2 s), then 60 tokens at 60/s (1 s): 100 tokens in 3 s
    s.add(
      usage({
        outputTokens: 40,
        tokensPerSecond: 20,
        timeToFirstTokenMs: 250,
        turnInputTokens: 9,
        turnOutputTokens: 40,
      }),
    )
    s.add(
      usage({
        outputTokens: 60,
        tokensPerSecond: 60,
        timeToFirstTokenMs: 900,
        turnInputTokens: 20,
        turnOutputTokens: 100,
        estimated: true,
      }),
    )
    expect(s.tokensPerSecond).toBeCloseTo(100 / 3, 10)
    expect(s.line()).toBe(
      '20 tokens in, 100 out (estimated) · 33.3 tokens/s · first token after 0.25 s',
    )
  })
})
