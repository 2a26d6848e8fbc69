/** An endless tool call from a model is cut at the answer's size limit, kept, and not asked for again. */
import { describe, expect, it } from 'vitest'
import { DEFAULT_MAX_ANSWER_CHARS } from '../../src-main/core/llm/client'
import { streamWithRetry } from '../../src-main/core/llm/retry'
import { LlmError } from '../../src-main/core/llm/types'
import type { SseItem } from '../support/openai-server'
import { recordingSleep, request, useServer } from './harness'

const ctx = useServer()

describe('tool-call arguments', () => {
  it('past the limit the stream is stopped with answer_too_long, once, with what came kept', async () => {
    const piece = 'a'.repeat(1_000_000)
    const items: SseItem[] = [
      {
        choices: [
          {
            index: 0,
            delta: {
              tool_calls: [
                {
                  index: 0,
                  id: 'c1',
                  type: 'function',
                  function: { name: 'w', arguments: '{"x":"' },
                },
              ],
            },
            finish_reason: null,
          },
        ],
      },
    ]
    // more than the limit, and no end: a model that never stops writing one argument
    for (let i = 0; i < DEFAULT_MAX_ANSWER_CHARS / piece.length + 3; i++)
      items.push({
        choices: [
          {
            index: 0,
            delta: { tool_calls: [{ index: 0, function: { arguments: piece } }] },
            finish_reason: null,
          },
        ],
      })
    ctx.server.enqueue({ type: 'sse', items, end: 'hang' })
    const { sleep } = recordingSleep()
    const err = await streamWithRetry(ctx.client, request(), {
      signal: new AbortController().signal,
      onDelta: () => {},
      onRetry: () => {},
      sleep,
    }).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LlmError)
    expect((err as LlmError).code).toBe('answer_too_long')
    expect((err as LlmError).message).toContain('tool call arguments')
    expect(ctx.server.requests).toHaveLength(1)
  })
})
