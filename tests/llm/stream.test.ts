/**
 * LlmClient.streamChat against the scripted server over real HTTP: text, usage, the request
 * body and headers, interrupted streams and the stream_options fallback.
 */
import { describe, expect, it } from 'vitest'
import { LlmClient } from '../../src-main/core/llm/client'
import { LlmError } from '../../src-main/core/llm/types'
import type { StreamDelta } from '../../src-main/core/llm/types'
import { dropAfter, startScriptedServer, textReply } from '../support/openai-server'
import { caught, request, signal, useServer } from './harness'

describe('plain text streaming', () => {
  const ctx = useServer()

  it('streams text deltas in order and returns content, finish reason and usage', async () => {
    ctx.server.enqueue(
      textReply('Hello, world! How are you?', {
        chunkSize: 5,
        usage: { prompt_tokens: 42, completion_tokens: 7 },
      }),
    )
    const deltas: StreamDelta[] = []
    const result = await ctx.client.streamChat(request(), {
      signal: signal(),
      onDelta: (d) => deltas.push(d),
    })
    expect(result.content).toBe('Hello, world! How are you?')
    expect(result.reasoning).toBeNull()
    expect(result.toolCalls).toEqual([])
    expect(result.finishReason).toBe('stop')
    expect(result.usage).toEqual({ inputTokens: 42, outputTokens: 7, estimated: false })
    expect(result.providerExtras).toBeNull()
    expect(deltas.map((d) => d.text)).toEqual(['Hello', ', wor', 'ld! H', 'ow ar', 'e you', '?'])
    expect(deltas.every((d) => d.type === 'text')).toBe(true)
  })

  it('estimates usage (≈ chars/4) and says so when the server sends none', async () => {
    ctx.server.enqueue(textReply('abcdefghij', { usage: null }))
    const result = await ctx.client.streamChat(request('x'.repeat(40)), {
      signal: signal(),
      onDelta: () => {},
    })
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 3, estimated: true })
  })

  it('sends exactly the body buildBody describes, and reports it as requestBody', async () => {
    ctx.server.enqueue(textReply('ok'))
    const req = request('hi', {
      tools: [
        { type: 'function', function: { name: 'read_file', parameters: { type: 'object' } } },
      ],
      params: { temperature: 0.2, model: 'ignored', stream: false },
    })
    const expected = ctx.client.buildBody(req)
    const result = await ctx.client.streamChat(req, { signal: signal(), onDelta: () => {} })
    expect(ctx.server.requests).toHaveLength(1)
    expect(ctx.server.requests[0]?.body).toEqual(expected)
    expect(result.requestBody).toEqual(expected)
    expect(expected).toMatchObject({
      model: 'test-model',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
    })
  })

  it('measures time to first token and latency', async () => {
    ctx.server.enqueue(textReply('slow text', { chunkSize: 3, delayMs: 60 }))
    const result = await ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} })
    expect(result.timeToFirstTokenMs).not.toBeNull()
    expect(result.timeToFirstTokenMs ?? 0).toBeGreaterThanOrEqual(50)
    expect(result.latencyMs).toBeGreaterThanOrEqual(170)
    expect(result.latencyMs).toBeGreaterThanOrEqual(result.timeToFirstTokenMs ?? 0)
  })

  it('keeps text with surrogate pairs split across chunks intact', async () => {
    const text = 'emoji 😀 and 🎉 done'
    ctx.server.enqueue(textReply(text, { chunkSize: 1 }))
    const result = await ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} })
    expect(result.content).toBe(text)
  })

  it('accepts a stream that ends without [DONE] once a finish_reason arrived', async () => {
    const reply = textReply('complete')
    if (reply.type === 'sse') reply.end = 'end-without-done'
    ctx.server.enqueue(reply)
    const result = await ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} })
    expect(result.content).toBe('complete')
  })

  it('accepts an answer whose finish_reason arrived before the connection dropped (usage then estimated)', async () => {
    // role chunk + the whole text with finish_reason, then the socket dies before the usage chunk
    ctx.server.enqueue(dropAfter(textReply('All there.', { chunkSize: 100 }), 2))
    const result = await ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} })
    expect(result.content).toBe('All there.')
    expect(result.finishReason).toBe('stop')
    expect(result.usage.estimated).toBe(true)
  })

  it('treats a stream that ends without a finish_reason and without [DONE] as interrupted (retryable, with partial)', async () => {
    ctx.server.enqueue(
      textReply('cut sho', { finishReason: null, usage: null, end: 'end-without-done' }),
    )
    const err = await caught(() =>
      ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} }),
    )
    expect(err).toBeInstanceOf(LlmError)
    const e = err as LlmError
    expect(e.code).toBe('interrupted')
    expect(e.retryable).toBe(true)
    expect(e.partial).toMatchObject({ content: 'cut sho', reasoning: null })
  })

  it('turns an error event in the middle of the stream into a retryable server error', async () => {
    ctx.server.enqueue({
      type: 'sse',
      items: [
        { choices: [{ index: 0, delta: { content: 'par' }, finish_reason: null }] },
        { raw: 'data: {"error":{"message":"provider overloaded","code":502}}\n\n' },
      ],
    })
    const err = await caught(() =>
      ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} }),
    )
    const e = err as LlmError
    expect(e.code).toBe('server')
    expect(e.retryable).toBe(true)
    expect(e.message).toContain('provider overloaded')
    expect(e.partial?.content).toBe('par')
  })
})

describe('headers', () => {
  it('sends no Authorization header without an API key, and extra headers as given', async () => {
    const server = await startScriptedServer()
    try {
      server.enqueue(textReply('ok'))
      const client = new LlmClient(
        { baseURL: server.baseURL, headers: { 'X-Title': 'Cairn' } },
        { fetch },
      )
      await client.streamChat(request(), { signal: signal(), onDelta: () => {} })
      expect(server.requests[0]?.headers['authorization']).toBeUndefined()
      expect(server.requests[0]?.headers['x-title']).toBe('Cairn')
    } finally {
      await server.close()
    }
  })

  it('sends the API key as a bearer token', async () => {
    const server = await startScriptedServer({ apiKey: 'sk-secret' })
    try {
      server.enqueue(textReply('ok'))
      const client = new LlmClient(
        { baseURL: server.baseURL + '/', apiKey: 'sk-secret' },
        { fetch },
      )
      const result = await client.streamChat(request(), { signal: signal(), onDelta: () => {} })
      expect(result.content).toBe('ok')
      expect(client.baseURL).toBe(server.baseURL)
      expect(server.requests[0]?.headers['authorization']).toBe('Bearer sk-secret')
    } finally {
      await server.close()
    }
  })
})

describe('stream_options fallback', () => {
  const ctx = useServer({ rejectStreamOptions: true })

  it('retries once without stream_options after a 400 naming it, and remembers it for the endpoint', async () => {
    ctx.server.enqueue(textReply('first', { usage: null }), textReply('second', { usage: null }))
    const first = await ctx.client.streamChat(request(), { signal: signal(), onDelta: () => {} })
    expect(first.content).toBe('first')
    expect(ctx.server.requests).toHaveLength(2)
    expect(ctx.server.requests[0]?.body.stream_options).toEqual({ include_usage: true })
    expect(ctx.server.requests[1]?.body).not.toHaveProperty('stream_options')
    expect(first.requestBody).not.toHaveProperty('stream_options')
    expect(first.usage.estimated).toBe(true)

    // remembered for the base URL, also by another client instance
    const other = new LlmClient({ baseURL: ctx.server.baseURL }, { fetch })
    expect(other.buildBody(request())).not.toHaveProperty('stream_options')
    const second = await other.streamChat(request(), { signal: signal(), onDelta: () => {} })
    expect(second.content).toBe('second')
    expect(ctx.server.requests).toHaveLength(3)
    expect(ctx.server.requests[2]?.body).not.toHaveProperty('stream_options')
  })

  it('does not drop stream_options for a 400 about something else', async () => {
    const server = await startScriptedServer()
    try {
      server.enqueue({ type: 'http', status: 400, body: { error: { message: 'bad temperature' } } })
      const client = new LlmClient({ baseURL: server.baseURL }, { fetch })
      const err = await caught(() =>
        client.streamChat(request(), { signal: signal(), onDelta: () => {} }),
      )
      expect((err as LlmError).code).toBe('request_rejected')
      expect(server.requests).toHaveLength(1)
      expect(client.buildBody(request())).toHaveProperty('stream_options')
    } finally {
      await server.close()
    }
  })
})
