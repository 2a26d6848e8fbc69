/**
 * What each provider quirk in the recorded corpus means for a turn: reasoning in Magistral's
 * content parts and in OpenRouter's reasoning_details, `[DONE]` without a finish reason,
 * an error after the finish reason, Groq's status_code and x_groq.usage, a 200 that is not
 * an event stream, and a local server that is not running. Each goes through the retry layer
 * as a turn does, so "not retried" is measured in requests the server received.
 */
import { createServer } from 'node:net'
import { describe, expect, it } from 'vitest'
import { localServerKind } from '../../src-main/core/llm/errors'
import { LlmClient } from '../../src-main/core/llm/client'
import { streamWithRetry } from '../../src-main/core/llm/retry'
import { LlmError } from '../../src-main/core/llm/types'
import { caught, recordingSleep, request, screen, useServer } from './harness'
import { expectedOf, loadRecording, replay } from './recordings'

describe('provider quirks, from the recorded corpus', () => {
  const ctx = useServer({ strict: false })

  async function run(file: string): Promise<{
    result: Awaited<ReturnType<typeof streamWithRetry>>
    ui: ReturnType<typeof screen>
    delays: number[]
  }> {
    ctx.server.enqueue(replay(loadRecording(file)))
    const { sleep, delays } = recordingSleep()
    const ui = screen()
    const result = await streamWithRetry(ctx.client, request(), {
      signal: new AbortController().signal,
      onDelta: ui.onDelta,
      onRetry: ui.onRetry,
      sleep,
    })
    return { result, ui, delays }
  }

  async function fail(file: string): Promise<{ error: LlmError; delays: number[] }> {
    ctx.server.enqueue(replay(loadRecording(file)))
    // were it retried, the fallback would answer the retry
    ctx.server.setFallback({ type: 'http', status: 500, body: { error: { message: 'again' } } })
    const { sleep, delays } = recordingSleep()
    const error = (await caught(() =>
      streamWithRetry(ctx.client, request(), {
        signal: new AbortController().signal,
        onDelta: () => {},
        onRetry: () => {},
        sleep,
      }),
    )) as LlmError
    expect(error).toBeInstanceOf(LlmError)
    return { error, delays }
  }

  it('Magistral: thinking content parts are reasoning, shown before the answer', async () => {
    const { result, ui } = await run('mistral-reasoning.chunks.txt')
    expect(result.reasoning).toBe('The user is asking for 2+2. This is basic arithmetic. 2+2=4.')
    expect(result.content).toBe('2 + 2 = 4')
    expect(ui.deltas[0]).toEqual({ type: 'reasoning', text: 'The user is asking' })
    expect(ui.deltas.at(-1)).toEqual({ type: 'text', text: '2 + 2 = 4' })
  })

  it('Mistral: a thinking part and a text part in one chunk go to reasoning and answer', async () => {
    const { result } = await run('mistral-thinking-parts.chunks.txt')
    expect(result.reasoning?.endsWith('= 391.')).toBe(true)
    expect(result.content).toBe('391')
  })

  it('OpenRouter: reasoning only in reasoning_details is shown, and kept to send back', async () => {
    const { result, ui } = await run('openrouter-reasoning-details-only.sse')
    expect(result.reasoning).toBe('**Weighing the options**\n\nThe user wants a short answer.')
    expect(ui.reasoning()).toBe(result.reasoning)
    expect(result.content).toBe('Yes.')
    expect(result.providerExtras).toEqual({
      reasoning_details: [
        {
          type: 'reasoning.text',
          text: '**Weighing the options**\n\nThe user wants a short answer.',
          format: 'google-gemini-v1',
          index: 0,
        },
        { type: 'reasoning.encrypted', data: 'CiQB0e2Kb3Vz', format: 'google-gemini-v1', index: 1 },
      ],
    })
  })

  it('OpenRouter: reasoning in both fields is shown once', async () => {
    ctx.server.enqueue({
      type: 'sse',
      items: [
        {
          choices: [
            {
              index: 0,
              delta: {
                reasoning: 'Once.',
                reasoning_details: [{ type: 'reasoning.text', text: 'Once.', index: 0 }],
              },
              finish_reason: null,
            },
          ],
        },
        { choices: [{ index: 0, delta: { content: 'Hi' }, finish_reason: 'stop' }] },
      ],
    })
    const ui = screen()
    const result = await ctx.client.streamChat(request(), {
      signal: new AbortController().signal,
      onDelta: ui.onDelta,
    })
    expect(result.reasoning).toBe('Once.')
    expect(ui.reasoning()).toBe('Once.')
  })

  it('Snowflake Cortex: [DONE] without a finish reason is a complete answer, asked for once', async () => {
    const { result, delays } = await run('snowflake-done-without-finish-reason.sse')
    expect(result.content).toBe('The capital of France is Paris.')
    expect(result.finishReason).toBe('stop')
    expect(result.retries).toEqual([])
    expect(delays).toEqual([])
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('a stream that ends without a finish reason and without [DONE] is interrupted and retried', async () => {
    ctx.server.enqueue(replay(loadRecording('vllm-cut-without-done.sse')))
    const { result } = await run('mistral-text.chunks.txt')
    expect(result.retries).toHaveLength(1)
    expect(result.retries[0]?.reason).toContain('ended before the answer was complete')
    expect(result.content).toBe('Hello, world! This is a test response.')
  })

  it('a [DONE] cut across two TCP writes still ends the answer', async () => {
    ctx.server.enqueue({
      type: 'sse',
      items: [
        { raw: 'data: {"choices":[{"index":0,"delta":{"content":"Whole."}}]}\n\ndata: [DO' },
        { delayMs: 30 },
        { raw: 'NE]\n\n' },
      ],
      end: 'end-without-done',
    })
    const result = await ctx.client.streamChat(request(), {
      signal: new AbortController().signal,
      onDelta: () => {},
    })
    expect(result.content).toBe('Whole.')
  })

  it('"data: [DONE]" written by the model inside its text does not end the answer', async () => {
    ctx.server.enqueue({
      type: 'sse',
      items: [
        { raw: 'data: {"choices":[{"index":0,"delta":{"content":"\\ndata: [DONE]\\n"}}]}\n\n' },
      ],
      end: 'end-without-done',
    })
    const e = await caught(() =>
      ctx.client.streamChat(request(), { signal: new AbortController().signal, onDelta: () => {} }),
    )
    expect(e).toMatchObject({ code: 'interrupted' })
  })

  it('OpenRouter: an error after finish_reason "length" fails the turn with its message, once', async () => {
    const { error, delays } = await fail('openrouter-length-then-error.sse')
    expect(error.message).toContain('Token limit reached')
    expect(error.message).toContain('after the answer ended (finish reason "length")')
    expect(error.retryable).toBe(false)
    expect(error.status).toBe(400)
    expect(error.partial?.reasoning).toBe(
      expectedOf(loadRecording('openrouter-length-then-error.sse')).reasoning,
    )
    expect(delays).toEqual([])
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('Groq: an in-stream 400 with status_code (tool_use_failed) is not retried', async () => {
    const { error, delays } = await fail('groq-tool-use-failed-status-code.sse')
    expect(error.code).toBe('request_rejected')
    expect(error.status).toBe(400)
    expect(error.message).toContain('Failed to call a function')
    expect(delays).toEqual([])
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('Groq: usage only in x_groq.usage is read (not estimated)', async () => {
    const { result } = await run('groq-usage-only-in-x-groq.sse')
    expect(result.usage).toEqual({ inputTokens: 36, outputTokens: 9, estimated: false })
  })

  it('Moonshot: usage on the choice is read (not estimated), its reasoning tokens too', async () => {
    const { result } = await run('moonshot-stream-choice-usage.chunks.txt')
    expect(result.usage).toEqual({
      inputTokens: 12,
      outputTokens: 5,
      reasoningTokens: 1,
      estimated: false,
    })
  })

  it('Moonshot: two calls begun without index are continued in order', async () => {
    const { result } = await run('moonshot-stream-indexless-tool-calls.chunks.txt')
    expect(result.toolCalls.map((c) => [c.id, c.name, c.arguments])).toEqual([
      ['weather_0', 'weather', '{"location":"San Francisco"}'],
      ['time_1', 'time', '{"zone":"UTC"}'],
    ])
  })
})

describe('a successful answer that is not an event stream', () => {
  const ctx = useServer({ strict: false })

  async function fail(reply: Parameters<typeof ctx.server.enqueue>[0]): Promise<LlmError> {
    ctx.server.enqueue(reply)
    ctx.server.setFallback({ type: 'http', status: 500, body: { error: { message: 'again' } } })
    const { sleep } = recordingSleep()
    return (await caught(() =>
      streamWithRetry(ctx.client, request(), {
        signal: new AbortController().signal,
        onDelta: () => {},
        onRetry: () => {},
        sleep,
      }),
    )) as LlmError
  }

  it('an HTML page (a proxy, a login portal) says so with its status and first line, once', async () => {
    const e = await fail({
      type: 'http',
      status: 200,
      body: '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body>…</body></html>',
      headers: { 'content-type': 'text/html; charset=utf-8' },
    })
    expect(e.code).toBe('bad_response')
    expect(e.status).toBe(200)
    expect(e.retryable).toBe(false)
    expect(e.message).toBe(
      `${ctx.server.baseURL} answered 200 (text/html) with something that is not an event stream: <!DOCTYPE html>`,
    )
    expect(ctx.server.requests).toHaveLength(1)
  })

  it('a JSON error with status 200 gives its message', async () => {
    const e = await fail({
      type: 'http',
      status: 200,
      body: { error: { message: 'Model is loading, try again later', type: 'server_error' } },
    })
    expect(e.code).toBe('bad_response')
    expect(e.message).toContain('(application/json)')
    expect(e.message).toContain('Model is loading, try again later')
    expect(ctx.server.requests).toHaveLength(1)
  })
})

describe('a local server that is not running', () => {
  it('fails at once, naming the server its port suggests', async () => {
    const port = await closedPort()
    const client = new LlmClient({ baseURL: `http://localhost:${port}/v1` }, { fetch })
    const { sleep, delays } = recordingSleep()
    const e = (await caught(() =>
      streamWithRetry(client, request(), {
        signal: new AbortController().signal,
        onDelta: () => {},
        onRetry: () => {},
        sleep,
      }),
    )) as LlmError
    expect(e.message).toContain(`nothing is listening at http://localhost:${port}`)
    expect(e.retryable).toBe(false)
    expect(delays).toEqual([])
  })

  it('knows the usual local servers by their default port', () => {
    expect(localServerKind('http://127.0.0.1:8080/v1')).toBe('llama.cpp')
    expect(localServerKind('http://localhost:11434/v1')).toBe('Ollama')
    expect(localServerKind('http://127.0.0.1:1234/v1')).toBe('LM Studio')
    expect(localServerKind('http://127.0.0.1:9999/v1')).toBeUndefined()
  })
})

function closedPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.once('error', reject)
    s.listen(0, '127.0.0.1', () => {
      const addr = s.address()
      const port = typeof addr === 'object' && addr ? addr.port : 0
      s.close(() => resolve(port))
    })
  })
}
