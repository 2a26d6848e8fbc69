/**
 * The token estimate learns each model's characters per token from the usage its server
 * reports, keeps it across restarts, and sizes requests against the real window with it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { FileTokenCalibration } from '../../src-main/adapters/calibration-file'
import { messageChars, toolChars } from '../../src-main/core/llm/estimate'
import type { WireMessage, WireTool } from '../../src-main/core/llm/types'
import {
  EMA_WEIGHT,
  MIN_SAMPLE_CHARS,
  nextCharsPerToken,
  windowInEstimateTokens,
} from '../../src-main/core/llm/calibration'
import { createHarness, type Harness } from '../support/agent-harness'
import { textReply } from '../support/openai-server'

describe('the learned characters per token', () => {
  it('starts at the first measurement and then moves a fifth of the way each time', () => {
    expect(nextCharsPerToken(null, 3_000, 1_000)).toBe(3)
    expect(nextCharsPerToken(3, 5_000, 1_000)).toBeCloseTo(3 + EMA_WEIGHT * 2)
  })

  it('ignores requests too small to say anything, and bounds what it believes', () => {
    expect(nextCharsPerToken(3, MIN_SAMPLE_CHARS - 1, 10)).toBe(3)
    expect(nextCharsPerToken(null, 10_000, 0)).toBeNull()
    expect(nextCharsPerToken(null, 100_000, 10)).toBe(8)
    expect(nextCharsPerToken(null, 2_000, 10_000)).toBe(1)
  })

  it('expresses the real window in the estimate’s units', () => {
    // tokens of 2 characters: 8 000 real tokens are 16 000 characters, 4 000 estimated tokens
    expect(windowInEstimateTokens(8_000, 2)).toBe(4_000)
    expect(windowInEstimateTokens(8_000, null)).toBe(8_000)
    expect(windowInEstimateTokens(0, 2)).toBe(0)
  })
})

describe('kept in the data directory', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-calibration-'))
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('survives a restart, per provider and model', async () => {
    const a = new FileTokenCalibration(dir)
    a.observe('http://p/v1', 'm', 6_000, 2_000)
    a.observe('http://p/v1', 'other', 10_000, 2_000)
    await a.flushed()
    const b = new FileTokenCalibration(dir)
    expect(b.charsPerToken('http://p/v1', 'm')).toBe(3)
    expect(b.charsPerToken('http://p/v1', 'other')).toBe(5)
    expect(b.charsPerToken('http://q/v1', 'm')).toBeNull()
  })

  it('a malformed file, or a bad entry in it, starts over for what it cannot read', () => {
    writeFileSync(join(dir, 'token-calibration.json'), '{not json')
    expect(new FileTokenCalibration(dir).charsPerToken('p', 'm')).toBeNull()
    writeFileSync(
      join(dir, 'token-calibration.json'),
      JSON.stringify({ 'p m': { charsPerToken: 3.5, samples: 2 }, 'p bad': { charsPerToken: 99 } }),
    )
    const c = new FileTokenCalibration(dir)
    expect(c.charsPerToken('p', 'm')).toBe(3.5)
    expect(c.charsPerToken('p', 'bad')).toBeNull()
  })
})

describe('in a turn', () => {
  let h: Harness
  afterEach(async () => {
    await h.close()
  })

  it('what the server counted is learned, and the next request is fitted to the calibrated window', async () => {
    h = await createHarness()
    const dir = mkdtempSync(join(tmpdir(), 'cairn-calibration-turn-'))
    const calibration = new FileTokenCalibration(dir)
    const question = 'x'.repeat(6_000)
    // the server counts the request as 3 000 tokens: 2 characters per token, not 4
    h.server.enqueue(textReply('ok', { usage: { prompt_tokens: 3_000, completion_tokens: 1 } }))
    await h.turn(question, { calibration, limits: { contextTokens: 100_000 } })
    const learned = calibration.charsPerToken(h.server.baseURL, h.model)!
    // what the request held (its messages and tool definitions), over what the server counted
    const sent = h.server.requests[0]!.body as { messages: WireMessage[]; tools?: WireTool[] }
    expect(learned).toBeCloseTo((messageChars(sent.messages) + toolChars(sent.tools)) / 3_000)
    expect(learned).toBeLessThan(4)
    await calibration.flushed()
    expect(JSON.parse(readFileSync(join(dir, 'token-calibration.json'), 'utf8'))).toHaveProperty(
      `${h.server.baseURL} ${h.model}`,
    )
    // the next turn: the window of 100 000 real tokens holds only about 50 000 estimated ones
    h.server.enqueue(textReply('ok'))
    const logs: { diagnostics?: { context?: { windowTokens: number; charsPerToken: number } } }[] =
      []
    await h.turn('again', {
      calibration,
      limits: { contextTokens: 100_000 },
      logger: {
        begin: async (_session, req) => {
          logs.push(req as never)
          return { number: logs.length, finish: async () => {} }
        },
      },
    })
    const context = logs.at(-1)?.diagnostics?.context
    expect(context?.charsPerToken).toBeCloseTo(learned)
    expect(context?.windowTokens).toBe(Math.floor((100_000 * learned) / 4))
    // the second answer's figures are written in the background: let that finish first
    await calibration.flushed()
    rmSync(dir, { recursive: true, force: true })
  })
})
