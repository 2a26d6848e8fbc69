/**
 * Drops, stalls and aborts during a stream: what is retried, what the UI is told to discard,
 * and what an abort leaves behind.
 */
import { describe, expect, it } from 'vitest'
import { streamWithRetry } from '../../src-main/core/llm/retry'
import { AbortReason, LlmError } from '../../src-main/core/llm/types'
import { dropAfter, reasoningReply, textReply } from '../support/openai-server'
import { caught, realSleep, recordingSleep, request, screen, useServer } from './harness'

describe('drops and stalls', () => {
  const ctx = useServer()

  it('retries a drop after some tokens, tells the UI to discard them, and never duplicates text', async () => {
    // role chunk + 'Hel' + 'lo ' then the socket is destroyed
    ctx.server.enqueue(
      dropAfter(textReply('Hello world', { chunkSize: 3 }), 3),
      textReply('Hello world', { chunkSize: 3 }),
    )
    const { delays, sleep } = recordingSleep()
    const ui = screen()
    const result = await streamWithRetry(ctx.client, request(), {
      signal: new AbortController().signal,
      onDelta: ui.onDelta,
      onRetry: ui.onRetry,
      sleep,
      random: () => 0.5,
    })
    expect(result.content).toBe('Hello world')
    expect(ui.text()).toBe('Hello world')
    expect(ui.deltas.map((d) => d.text).join('')).toBe('Hello Hello world')
    expect(result.retries).toHaveLength(1)
    expect(result.retries[0]).toMatchObject({
      attempt: 2,
      maxAttempts: 4,
      discardPartial: true,
      delayMs: 500,
    })
    expect(result.retries[0]?.reason).toContain(ctx.server.baseURL)
    expect(delays).toEqual([500])
    expect(ctx.server.requests).toHaveLength(2)
  })

  it('says discardPartial: false when the failed attempt showed nothing', async () => {
    ctx.server.enqueue(dropAfter(textReply('Hi'), 1), textReply('Hi'))
    const { sleep } = recordingSleep()
    const ui = screen()
    const result = await streamWithRetry(ctx.client, request(), {
      signal: new AbortController().signal,
      onDelta: ui.onDelta,
      onRetry: ui.onRetry,
      sleep,
    })
    expect(result.content).toBe('Hi')
    expect(result.retries.map((r) => r.discardPartial)).toEqual([false])
  })

  it('retries an interrupted stream (no finish_reason, no [DONE]) like a drop', async () => {
    ctx.server.enqueue(
      textReply('Part', { finishReason: null, end: 'end-without-done' }),
      textReply('Whole'),
    )
    const { sleep } = recordingSleep()
    const ui = screen()
    const result = await streamWithRetry(ctx.client, request(), {
      signal: new AbortController().signal,
      onDelta: ui.onDelta,
      onRetry: ui.onRetry,
      sleep,
    })
    expect(result.content).toBe('Whole')
    expect(ui.text()).toBe('Whole')
    expect(result.retries[0]?.discardPartial).toBe(true)
    expect(result.retries[0]?.reason).toContain('ended before the answer was complete')
  })

  it("when retries are exhausted after drops, the error carries the last attempt's partial", async () => {
    ctx.server.enqueue(
      dropAfter(
        reasoningReply('think 1', 'answer one', { style: 'reasoning_content', chunkSize: 7 }),
        3,
      ),
      dropAfter(
        reasoningReply('think 2', 'answer two', { style: 'reasoning_content', chunkSize: 7 }),
        3,
      ),
      dropAfter(
        reasoningReply('think 3', 'answer three', { style: 'reasoning_content', chunkSize: 7 }),
        3,
      ),
    )
    const { delays, sleep } = recordingSleep()
    const ui = screen()
    const err = await caught(() =>
      streamWithRetry(ctx.client, request(), {
        signal: new AbortController().signal,
        onDelta: ui.onDelta,
        onRetry: ui.onRetry,
        sleep,
        policy: { maxRetries: 2 },
      }),
    )
    expect(err).toBeInstanceOf(LlmError)
    const e = err as LlmError
    expect(e.code).toBe('network')
    expect(e.retryable).toBe(true)
    expect(e.partial).toMatchObject({
      content: 'answer ',
      reasoning: 'think 3',
      reasoningMs: expect.any(Number),
    })
    expect(ui.text()).toBe('answer ')
    expect(ui.reasoning()).toBe('think 3')
    expect(delays).toHaveLength(2)
    expect(ctx.server.requests).toHaveLength(3)
  })

  it('the watchdog drops a stream that goes silent, and the retry succeeds', async () => {
    ctx.server.enqueue(
      {
        type: 'sse',
        items: [{ choices: [{ index: 0, delta: { content: 'Hel' }, finish_reason: null }] }],
        end: 'hang',
      },
      textReply('Hello'),
    )
    const { sleep } = recordingSleep()
    const ui = screen()
    const started = Date.now()
    const result = await streamWithRetry(ctx.client, request(), {
      signal: new AbortController().signal,
      onDelta: ui.onDelta,
      onRetry: ui.onRetry,
      sleep,
      // long enough that a busy machine still delivers the answering attempt in time
      idleTimeoutMs: 1_500,
    })
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_490)
    expect(result.content).toBe('Hello')
    expect(ui.text()).toBe('Hello')
    expect(result.retries).toHaveLength(1)
    expect(result.retries[0]?.discardPartial).toBe(true)
    expect(result.retries[0]?.reason).toContain('sent nothing')
  })

  it('the watchdog also covers the wait for the response headers (nothing streamed: discardPartial false)', async () => {
    ctx.server.enqueue(
      () => new Promise((resolve) => setTimeout(() => resolve(textReply('too late')), 6_000)),
      textReply('on time'),
    )
    const { sleep } = recordingSleep()
    const ui = screen()
    const result = await streamWithRetry(ctx.client, request(), {
      signal: new AbortController().signal,
      onDelta: ui.onDelta,
      onRetry: ui.onRetry,
      sleep,
      idleTimeoutMs: 1_500,
    })
    expect(result.content).toBe('on time')
    expect(result.retries).toHaveLength(1)
    expect(result.retries[0]?.discardPartial).toBe(false)
    expect(result.retries[0]?.reason).toContain('sent nothing')
  })

  it('a single attempt that stalls fails with idle_timeout (retryable, with partial)', async () => {
    ctx.server.enqueue({
      type: 'sse',
      items: [{ choices: [{ index: 0, delta: { content: 'stuck' }, finish_reason: null }] }],
      end: 'hang',
    })
    const err = await caught(() =>
      ctx.client.streamChat(request(), {
        signal: new AbortController().signal,
        onDelta: () => {},
        idleTimeoutMs: 1_000,
      }),
    )
    const e = err as LlmError
    expect(e.code).toBe('idle_timeout')
    expect(e.retryable).toBe(true)
    expect(e.partial?.content).toBe('stuck')
  })

  it('a slow but steady stream is not cut by the watchdog', async () => {
    ctx.server.enqueue(textReply('steady stream, slowly', { chunkSize: 1, delayMs: 120 }))
    const result = await ctx.client.streamChat(request(), {
      signal: new AbortController().signal,
      onDelta: () => {},
      idleTimeoutMs: 2_000,
    })
    expect(result.content).toBe('steady stream, slowly')
    // longer in total than the idle timeout: the watchdog is reset by every chunk
    expect(result.latencyMs).toBeGreaterThan(2_000)
  })
})

describe('aborts', () => {
  const ctx = useServer()

  it('an outer stop mid-stream ends with aborted, the partial, and no retry', async () => {
    const text = 'one two three four five six seven eight'
    ctx.server.enqueue(
      textReply(text, { chunkSize: 4, delayMs: 30 }),
      textReply('must not be used'),
    )
    const controller = new AbortController()
    const ui = screen()
    const { sleep, delays } = recordingSleep()
    const err = await caught(() =>
      streamWithRetry(ctx.client, request(), {
        signal: controller.signal,
        onDelta: (d) => {
          ui.onDelta(d)
          if (ui.text().length >= 8) controller.abort(new AbortReason('stop'))
        },
        onRetry: ui.onRetry,
        sleep,
      }),
    )
    const e = err as LlmError
    expect(e.code).toBe('aborted')
    expect(e.abortKind).toBe('stop')
    expect(e.retryable).toBe(false)
    expect(e.partial?.content).toBe(ui.text())
    expect(e.partial?.content.length).toBeGreaterThanOrEqual(8)
    expect(text.startsWith(e.partial?.content ?? '!')).toBe(true)
    expect(e.partial?.content).not.toBe(text)
    expect(ui.retries).toEqual([])
    expect(delays).toEqual([])
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('a deadline abort says so', async () => {
    ctx.server.enqueue({ type: 'sse', items: [], end: 'hang' })
    const controller = new AbortController()
    setTimeout(() => controller.abort(new AbortReason('deadline')), 100)
    const { sleep } = recordingSleep()
    const err = await caught(() =>
      streamWithRetry(ctx.client, request(), {
        signal: controller.signal,
        onDelta: () => {},
        onRetry: () => {},
        sleep,
      }),
    )
    expect((err as LlmError).code).toBe('aborted')
    expect((err as LlmError).abortKind).toBe('deadline')
    expect((err as LlmError).partial).toMatchObject({ content: '', reasoning: null })
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('an abort during the backoff sleep ends at once, without another attempt', async () => {
    ctx.server.enqueue(dropAfter(textReply('Hello there', { chunkSize: 2 }), 3), textReply('never'))
    const controller = new AbortController()
    const ui = screen()
    const started = Date.now()
    const err = await caught(() =>
      streamWithRetry(ctx.client, request(), {
        signal: controller.signal,
        onDelta: ui.onDelta,
        onRetry: (info) => {
          ui.onRetry(info)
          setTimeout(() => controller.abort(new AbortReason('stop')), 30)
        },
        sleep: realSleep,
        policy: { baseDelayMs: 5_000 },
      }),
    )
    const e = err as LlmError
    expect(e.code).toBe('aborted')
    expect(e.abortKind).toBe('stop')
    expect(ui.retries).toHaveLength(1)
    expect(ui.retries[0]?.delayMs).toBeGreaterThanOrEqual(3_750)
    // Stop cut the wait short: it ended before the wait it announced could have
    expect(Date.now() - started).toBeLessThan(ui.retries[0]!.delayMs)
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('an already aborted signal sends nothing', async () => {
    const controller = new AbortController()
    controller.abort(new AbortReason('stop'))
    const err = await caught(() =>
      ctx.client.streamChat(request(), { signal: controller.signal, onDelta: () => {} }),
    )
    expect((err as LlmError).code).toBe('aborted')
    expect(ctx.server.requests).toHaveLength(0)
  })
})
