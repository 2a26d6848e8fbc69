/**
 * HTTP and connection failures through streamWithRetry: what is retried (with which delay),
 * what is not, and what the error says.
 */
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { LlmClient } from '../../src-main/core/llm/client'
import { parseRetryAfter } from '../../src-main/core/llm/errors'
import { backoffDelay, streamWithRetry } from '../../src-main/core/llm/retry'
import { LlmError } from '../../src-main/core/llm/types'
import { httpError, startScriptedServer, textReply } from '../support/openai-server'
import { caught, recordingSleep, request, screen, signal, useServer } from './harness'

function retryOpts(extra: { random?: () => number } = {}): {
  delays: number[]
  ui: ReturnType<typeof screen>
  opts: Parameters<typeof streamWithRetry>[2]
} {
  const { delays, sleep } = recordingSleep()
  const ui = screen()
  return {
    delays,
    ui,
    opts: {
      signal: signal(),
      onDelta: ui.onDelta,
      onRetry: ui.onRetry,
      sleep,
      random: extra.random ?? (() => 0.5),
    },
  }
}

async function closedPort(): Promise<number> {
  const srv = createServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', () => resolve()))
  const address = srv.address()
  if (!address || typeof address === 'string') throw new Error('no port')
  await new Promise<void>((resolve) => srv.close(() => resolve()))
  return address.port
}

describe('retryable HTTP errors', () => {
  const ctx = useServer()

  it('retries a 500 and then succeeds', async () => {
    ctx.server.enqueue(httpError(500, 'upstream exploded'), textReply('recovered'))
    const { delays, ui, opts } = retryOpts()
    const result = await streamWithRetry(ctx.client, request(), opts)
    expect(result.content).toBe('recovered')
    expect(ctx.server.requests).toHaveLength(2)
    expect(delays).toEqual([500])
    expect(result.retries).toEqual([
      {
        attempt: 2,
        maxAttempts: 4,
        delayMs: 500,
        reason: expect.stringContaining('upstream exploded'),
        discardPartial: false,
      },
    ])
    expect(ui.retries).toEqual(result.retries)
  })

  it('backs off exponentially (500, 1000, 2000 ms) and gives up after 3 retries', async () => {
    ctx.server.setFallback(httpError(503, 'overloaded'))
    const { delays, opts } = retryOpts()
    const err = await caught(() => streamWithRetry(ctx.client, request(), opts))
    expect(err).toBeInstanceOf(LlmError)
    expect((err as LlmError).code).toBe('server')
    expect((err as LlmError).status).toBe(503)
    expect((err as LlmError).message).toContain('overloaded')
    expect((err as LlmError).message).toContain('gave up after 4 attempts')
    expect(delays).toEqual([500, 1000, 2000])
    expect(ctx.server.requests).toHaveLength(4)
  })

  it('retries 408, 409 and 429 too, and honours a smaller maxRetries', async () => {
    ctx.server.enqueue(
      httpError(408, 'timeout'),
      httpError(409, 'conflict'),
      httpError(429, 'slow'),
      textReply('ok'),
    )
    const { delays, opts } = retryOpts()
    const result = await streamWithRetry(ctx.client, request(), opts)
    expect(result.content).toBe('ok')
    expect(delays).toHaveLength(3)

    ctx.server.enqueue(httpError(500, 'a'), httpError(500, 'b'), textReply('never reached'))
    const second = retryOpts()
    const err = await caught(() =>
      streamWithRetry(ctx.client, request(), { ...second.opts, policy: { maxRetries: 1 } }),
    )
    expect((err as LlmError).message).toContain('b')
    expect(second.delays).toHaveLength(1)
  })

  it('honours Retry-After: 1 (1000 ms)', async () => {
    ctx.server.enqueue(
      httpError(429, 'Rate limit reached', { 'Retry-After': '1' }),
      textReply('after the wait'),
    )
    const { delays, opts } = retryOpts()
    const result = await streamWithRetry(ctx.client, request(), opts)
    expect(result.content).toBe('after the wait')
    expect(delays).toEqual([1000])
    expect(result.retries[0]?.reason).toContain('Rate limit reached')
  })

  it('prefers retry-after-ms', async () => {
    ctx.server.enqueue(
      httpError(429, 'slow', { 'retry-after-ms': '250', 'Retry-After': '9' }),
      textReply('ok'),
    )
    const { delays, opts } = retryOpts()
    await streamWithRetry(ctx.client, request(), opts)
    expect(delays).toEqual([250])
  })

  it('honours a Retry-After HTTP date', async () => {
    const date = new Date(Date.now() + 5_000).toUTCString()
    ctx.server.enqueue(httpError(503, 'maintenance', { 'Retry-After': date }), textReply('ok'))
    const { delays, opts } = retryOpts()
    await streamWithRetry(ctx.client, request(), opts)
    expect(delays).toHaveLength(1)
    expect(delays[0]).toBeGreaterThan(3_000)
    expect(delays[0]).toBeLessThanOrEqual(5_000)
  })

  it('stops with retry_after_too_long when asked to wait longer than 60 s, saying when to try again', async () => {
    ctx.server.enqueue(
      httpError(429, 'quota exceeded', { 'Retry-After': '120' }),
      textReply('never'),
    )
    const { delays, opts } = retryOpts()
    const err = await caught(() => streamWithRetry(ctx.client, request(), opts))
    const e = err as LlmError
    expect(e.code).toBe('retry_after_too_long')
    expect(e.retryAfterMs).toBe(120_000)
    expect(e.message).toMatch(/The server asked to wait 120 s \(try again after \d\d:\d\d:\d\d\)/)
    expect(e.message).toContain('quota exceeded')
    expect(delays).toEqual([])
    expect(ctx.server.requests).toHaveLength(1)
  })
})

describe('errors that are never retried', () => {
  const ctx = useServer()

  it('401: the key was rejected (exactly one request)', async () => {
    const server = await startScriptedServer({ apiKey: 'sk-right' })
    try {
      const client = new LlmClient({ baseURL: server.baseURL, apiKey: 'sk-wrong' }, { fetch })
      const { delays, opts } = retryOpts()
      const err = await caught(() => streamWithRetry(client, request(), opts))
      const e = err as LlmError
      expect(e.code).toBe('auth')
      expect(e.status).toBe(401)
      expect(e.message).toContain(`The API key was rejected by ${server.baseURL}. Check the key`)
      expect(server.requests).toHaveLength(1)
      expect(delays).toEqual([])
    } finally {
      await server.close()
    }
  })

  it("400: the server's message (exactly one request)", async () => {
    ctx.server.enqueue(
      httpError(400, "Invalid value for 'temperature': must be <= 2."),
      textReply('never'),
    )
    const { opts } = retryOpts()
    const e = (await caught(() => streamWithRetry(ctx.client, request(), opts))) as LlmError
    expect(e.code).toBe('request_rejected')
    expect(e.message).toContain("Invalid value for 'temperature': must be <= 2.")
    expect(ctx.server.requests).toHaveLength(1)
  })

  it("403: access_denied with the server's message (exactly one request)", async () => {
    ctx.server.enqueue(httpError(403, 'Your plan does not include this model.'), textReply('never'))
    const { opts } = retryOpts()
    const e = (await caught(() => streamWithRetry(ctx.client, request(), opts))) as LlmError
    expect(e.code).toBe('access_denied')
    expect(e.message).toContain('forbidden')
    expect(e.message).toContain('Your plan does not include this model.')
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('404 naming the model: model_not_found listing the available models', async () => {
    ctx.server.models = ['llama3.2', 'qwen3:8b', 'gemma3']
    ctx.server.enqueue(
      httpError(404, 'model "test-model" not found, try pulling it first'),
      textReply('never'),
    )
    const { opts } = retryOpts()
    const e = (await caught(() => streamWithRetry(ctx.client, request(), opts))) as LlmError
    expect(e.code).toBe('model_not_found')
    expect(e.message).toBe(
      `Model 'test-model' was not found on ${ctx.server.baseURL}; available: gemma3, llama3.2, qwen3:8b`,
    )
    expect(ctx.server.requests).toHaveLength(1)
    expect(ctx.server.modelsRequests).toBe(1)
  })

  it('404 naming the model when the model list cannot be fetched: says so, without a list', async () => {
    ctx.server.modelsReply = httpError(500, 'models endpoint down')
    ctx.server.enqueue(httpError(404, 'The model `test-model` does not exist'))
    const e = (await caught(() =>
      ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} }),
    )) as LlmError
    expect(e.code).toBe('model_not_found')
    expect(e.message).toContain(`Model 'test-model' was not found on ${ctx.server.baseURL}`)
    expect(e.message).toContain('could not be fetched')
    expect(e.message).not.toContain('available:')
  })

  it('404 not about a model: endpoint_not_found pointing at the base URL', async () => {
    const client = new LlmClient(
      { baseURL: ctx.server.baseURL.replace(/\/v1$/, '/wrong') },
      { fetch },
    )
    const e = (await caught(() =>
      client.streamChat(request(), { signal: signal(), onDelta: () => {} }),
    )) as LlmError
    expect(e.code).toBe('endpoint_not_found')
    expect(e.message).toContain('Check the base URL')
  })

  it('listModels returns the sorted ids', async () => {
    ctx.server.models = ['b-model', 'a-model', 'c-model']
    expect(await ctx.client.listModels()).toEqual(['a-model', 'b-model', 'c-model'])
  })
})

describe('connection refused', () => {
  it('on a loopback address fails at once: nothing is listening there (no retries)', async () => {
    const port = await closedPort()
    const client = new LlmClient({ baseURL: `http://127.0.0.1:${port}/v1` }, { fetch })
    const { delays, opts } = retryOpts()
    const e = (await caught(() => streamWithRetry(client, request(), opts))) as LlmError
    expect(e.code).toBe('network')
    expect(e.retryable).toBe(false)
    expect(e.message).toBe(
      `Could not connect: nothing is listening at http://127.0.0.1:${port} — is the local server running?`,
    )
    expect(delays).toEqual([])
  })
})

describe('retry arithmetic', () => {
  it('applies ±25 % jitter around base · 2^n', () => {
    expect(backoffDelay(1, 500, () => 0)).toBe(375)
    expect(backoffDelay(1, 500, () => 0.999999)).toBe(625)
    expect(backoffDelay(3, 500, () => 0.5)).toBe(2000)
  })

  it('parses retry-after-ms, seconds and HTTP dates', () => {
    const now = Date.parse('2030-01-01T12:00:00Z')
    expect(parseRetryAfter(new Headers({ 'retry-after-ms': '1500' }), now)).toBe(1500)
    expect(parseRetryAfter(new Headers({ 'retry-after': '2.5' }), now)).toBe(2500)
    expect(
      parseRetryAfter(new Headers({ 'retry-after': 'Tue, 01 Jan 2030 12:00:30 GMT' }), now),
    ).toBe(30_000)
    expect(parseRetryAfter(new Headers({ 'retry-after': 'soon' }), now)).toBeUndefined()
    expect(parseRetryAfter(new Headers(), now)).toBeUndefined()
  })
})
