/**
 * Issue 25, case 7: every streamed part of an answer counts against one cap (the answer's
 * limit, `maxAnswerChars`; 2 million characters when a caller sets none): text, reasoning,
 * OpenRouter's `reasoning_details` (repeated text, encrypted blocks) and tool-call arguments.
 * Past it the stream is stopped at once with `answer_too_long` (not read on until the idle
 * watchdog), and what came up to the cap is kept. The stream never ends by itself here.
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_MAX_ANSWER_CHARS } from '../../src-main/core/llm/client'
import { streamWithRetry } from '../../src-main/core/llm/retry'
import { LlmError } from '../../src-main/core/llm/types'
import type { SseItem } from '../support/openai-server'
import { recordingSleep, request, useServer } from './harness'
import { createHarness } from '../support/agent-harness'

const ctx = useServer()
const PIECE = 100_000

/** `delta` pieces of about PIECE characters, enough for `total` characters, then no end */
function endless(total: number, delta: (i: number) => Record<string, unknown>) {
  const items: SseItem[] = []
  for (let i = 0; i * PIECE < total; i++)
    items.push({ choices: [{ index: 0, delta, finish_reason: null }] } as SseItem)
  for (let i = 0; i < items.length; i++)
    (items[i] as { choices: { delta: unknown }[] }).choices[0]!.delta = delta(i)
  return { type: 'sse' as const, items, end: 'hang' as const }
}

async function stream(maxAnswerChars?: number): Promise<LlmError> {
  const err = await streamWithRetry(ctx.client, request(), {
    signal: new AbortController().signal,
    onDelta: () => {},
    onRetry: () => {},
    sleep: recordingSleep().sleep,
    // a stream read on past the cap would end here instead, as a stall
    idleTimeoutMs: 3_000,
    policy: { maxRetries: 0 },
    ...(maxAnswerChars !== undefined ? { maxAnswerChars } : {}),
  }).catch((e: unknown) => e)
  expect(err).toBeInstanceOf(LlmError)
  return err as LlmError
}

const text = (n: number): string => 'r'.repeat(n)

describe('one cap for every streamed part of an answer', () => {
  it('is 2 million characters when the caller sets none', () => {
    expect(DEFAULT_MAX_ANSWER_CHARS).toBe(2_000_000)
  })

  it('counts reasoning_details whose text repeats `reasoning` (OpenRouter)', async () => {
    ctx.server.enqueue(
      endless(33_000_000, (i) => ({
        reasoning: 'x',
        reasoning_details: [{ type: 'reasoning.text', index: 0, text: text(PIECE) + i }],
      })),
    )
    const err = await stream()
    expect(err.code).toBe('answer_too_long')
    expect(err.message).toMatch(/2 million characters.*reasoning/)
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('counts encrypted reasoning blocks, which show nothing', async () => {
    ctx.server.enqueue(
      endless(5_000_000, () => ({
        reasoning_details: [{ type: 'reasoning.encrypted', data: text(PIECE) }],
      })),
    )
    expect((await stream(1_000_000)).code).toBe('answer_too_long')
  })

  it('counts text, reasoning and tool-call arguments together', async () => {
    ctx.server.enqueue(
      endless(3_000_000, (i) =>
        i % 3 === 0
          ? { content: text(PIECE) }
          : i % 3 === 1
            ? { reasoning_content: text(PIECE) }
            : {
                tool_calls: [
                  {
                    index: 0,
                    ...(i === 2 ? { id: 'c1', type: 'function' } : {}),
                    function: { ...(i === 2 ? { name: 'w' } : {}), arguments: text(PIECE) },
                  },
                ],
              },
      ),
    )
    const err = await stream(1_000_000)
    expect(err.code).toBe('answer_too_long')
    // what came is kept, up to the cap: text and reasoning share it
    const kept = (err.partial?.content.length ?? 0) + (err.partial?.reasoning?.length ?? 0)
    expect(kept).toBeLessThanOrEqual(1_000_000)
    expect(kept).toBeGreaterThan(500_000)
  })
})

describe('a turn whose model streams reasoning_details without end', () => {
  it('ends with answer_too_long at the limit, and stores no more than it', async () => {
    const h = await createHarness({ strict: false })
    try {
      h.server.enqueue(
        endless(4_000_000, (i) => ({
          reasoning: 'x',
          reasoning_details: [{ type: 'reasoning.text', index: 0, text: text(PIECE) + i }],
        })),
      )
      const { outcome } = await h.turn('think', {
        limits: { maxAnswerChars: 300_000, idleTimeoutMs: 3_000, maxRetries: 0 },
      })
      expect(outcome.error?.code).toBe('answer_too_long')
      const saved = h.store.listMessages(h.sessionId).filter((m) => m.role === 'assistant')
      expect(JSON.stringify(saved).length).toBeLessThan(400_000)
    } finally {
      await h.close()
    }
  })
})
