import { afterEach, describe, expect, it } from 'vitest'
import { OllamaNativeClient } from '../../src-main/core/llm/ollama/ollama-client'
import { streamWithRetry } from '../../src-main/core/llm/retry'
import { LlmError, type StreamDelta } from '../../src-main/core/llm/types'
import { startRouteServer, type RouteReply, type RouteServer } from '../support/route-server'

let server: RouteServer | null = null
afterEach(async () => {
  await server?.close()
  server = null
})

const line = (message: Record<string, unknown>, extra: Record<string, unknown> = {}) => ({
  model: 'qwen3',
  created_at: '2026-01-01T00:00:00Z',
  message: { role: 'assistant', content: '', ...message },
  done: false,
  ...extra,
})
const done = (reason = 'stop') => ({
  model: 'qwen3',
  message: { role: 'assistant', content: '' },
  done: true,
  done_reason: reason,
  prompt_eval_count: 42,
  eval_count: 7,
})

/** a server whose /api/chat answers the queued replies in order */
async function ollama(...replies: RouteReply[]): Promise<RouteServer> {
  const queue = [...replies]
  server = await startRouteServer({
    'POST /api/chat': () => queue.shift() ?? { status: 500, json: { error: 'no scripted reply' } },
  })
  return server
}

function client(s: RouteServer, opts = {}) {
  return new OllamaNativeClient(
    { baseURL: `${s.root}/v1` },
    { numCtx: 40_960, keepAlive: '-1', think: true, ...opts },
    { fetch },
  )
}

async function run(c: OllamaNativeClient, idleTimeoutMs?: number) {
  const deltas: StreamDelta[] = []
  const result = await streamWithRetry(
    c,
    { model: 'qwen3', messages: [{ role: 'user', content: 'hi' }] },
    {
      signal: new AbortController().signal,
      onDelta: (d) => deltas.push(d),
      onRetry: () => {},
      sleep: async () => {},
      ...(idleTimeoutMs ? { idleTimeoutMs } : {}),
    },
  )
  return { result, deltas }
}

describe("Ollama's native chat API", () => {
  it('streams thinking and text as deltas, with usage, and sends num_ctx, keep_alive and think', async () => {
    const s = await ollama({
      ndjson: [
        line({ thinking: 'Let me ' }),
        line({ thinking: 'think.' }),
        line({ content: 'Hello' }),
        line({ content: ' there' }),
        done(),
      ],
    })
    const { result, deltas } = await run(client(s))
    expect(deltas).toEqual([
      { type: 'reasoning', text: 'Let me ' },
      { type: 'reasoning', text: 'think.' },
      { type: 'text', text: 'Hello' },
      { type: 'text', text: ' there' },
    ])
    expect(result).toMatchObject({
      content: 'Hello there',
      reasoning: 'Let me think.',
      finishReason: 'stop',
      usage: { inputTokens: 42, outputTokens: 7, estimated: false },
      servedModel: 'qwen3',
    })
    const body = s.requests[0]!.body
    expect(body).toMatchObject({
      model: 'qwen3',
      stream: true,
      think: true,
      keep_alive: -1,
      options: { num_ctx: 40_960 },
    })
  })

  it('reads complete tool calls from one message, arguments as JSON text', async () => {
    const s = await ollama({
      ndjson: [
        line({
          tool_calls: [
            { function: { name: 'read_file', arguments: { path: 'a.txt' } } },
            { function: { name: 'list_directory', arguments: { path: '.' } } },
          ],
        }),
        done(),
      ],
    })
    const { result } = await run(client(s))
    expect(result.finishReason).toBe('tool_calls')
    expect(result.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['read_file', { path: 'a.txt' }],
      ['list_directory', { path: '.' }],
    ])
    expect(new Set(result.toolCalls.map((c) => c.id)).size).toBe(2)
  })

  it('sends history in its own shape: tool results named, arguments as objects, images apart', async () => {
    const s = await ollama({ ndjson: [line({ content: 'ok' }), done()] })
    await client(s, { think: undefined }).streamChat(
      {
        model: 'qwen3',
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'look' },
              { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } },
            ],
          },
          {
            role: 'assistant',
            content: '',
            reasoning_content: 'hmm',
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'read_file', arguments: '{"path":"a"}' },
              },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'A' },
        ],
        params: { temperature: 0.2, max_tokens: 100 },
      },
      { signal: new AbortController().signal, onDelta: () => {} },
    )
    const body = s.requests[0]!.body
    expect(body.think).toBeUndefined()
    expect(body.options).toEqual({ temperature: 0.2, num_predict: 100, num_ctx: 40_960 })
    expect(body.messages).toEqual([
      { role: 'user', content: 'look', images: ['iVBORw0KGgo='] },
      {
        role: 'assistant',
        content: '',
        thinking: 'hmm',
        tool_calls: [{ function: { name: 'read_file', arguments: { path: 'a' } } }],
      },
      { role: 'tool', content: 'A', tool_name: 'read_file' },
    ])
  })

  it('an answer cut at the output limit says length', async () => {
    const s = await ollama({ ndjson: [line({ content: 'Once upon' }), done('length')] })
    const { result } = await run(client(s))
    expect(result.finishReason).toBe('length')
  })

  it('a stream that drops before done is retried like any other', async () => {
    const s = await ollama(
      { ndjson: [line({ content: 'Hel' })], end: 'drop' },
      { ndjson: [line({ content: 'Hello' }), done()] },
    )
    const { result } = await run(client(s))
    expect(result.content).toBe('Hello')
    expect(s.requests).toHaveLength(2)
  })

  it('a line that is not what Ollama sends is a clear error, not a crash', async () => {
    // the server goes on (and never ends): the answer stops at the line all the same
    const s = await ollama({
      ndjson: [line({ content: 'a' }), { message: { content: 5 } }],
      end: 'hang',
    })
    const err = await run(client(s)).catch((e: unknown) => e)
    expect(err).toBeInstanceOf(LlmError)
    expect((err as LlmError).code).toBe('bad_response')
    expect((err as LlmError).message).toMatch(
      /sent a line Cairn does not understand \(message\.content/,
    )
    expect((err as LlmError).partial?.content).toBe('a')
  })

  it("an unknown model is named, with Ollama's own words", async () => {
    const s = await ollama({
      status: 404,
      json: { error: 'model "qwen3" not found, try pulling it first' },
    })
    const err = (await run(client(s)).catch((e: unknown) => e)) as LlmError
    expect(err.code).toBe('model_not_found')
    expect(err.message).toContain('try pulling it first')
    expect(s.requests).toHaveLength(1)
  })

  it('an error line in the stream is reported', async () => {
    const s = await ollama(
      { ndjson: [{ error: 'model runner has unexpectedly stopped' }] },
      { ndjson: [{ error: 'model runner has unexpectedly stopped' }] },
      { ndjson: [{ error: 'model runner has unexpectedly stopped' }] },
      { ndjson: [{ error: 'model runner has unexpectedly stopped' }] },
    )
    const err = (await run(client(s)).catch((e: unknown) => e)) as LlmError
    expect(err.message).toContain('reported an error: model runner has unexpectedly stopped')
    expect(err.message).toContain('gave up after 4 attempts')
  })

  it('a stalled stream is dropped by the idle watchdog', async () => {
    const s = await ollama(
      { ndjson: [line({ content: 'a' })], end: 'hang' },
      { ndjson: [line({ content: 'b' }), done()] },
    )
    const deltas: StreamDelta[] = []
    const retries: string[] = []
    const result = await streamWithRetry(
      client(s),
      { model: 'qwen3', messages: [{ role: 'user', content: 'hi' }] },
      {
        signal: new AbortController().signal,
        // long enough that a busy machine still delivers the answering attempt in time
        idleTimeoutMs: 1_500,
        onDelta: (d) => deltas.push(d),
        onRetry: (r) => retries.push(r.reason),
        sleep: async () => {},
      },
    )
    expect(retries[0]).toMatch(/sent nothing for 2 s; the stream was dropped/)
    expect(result.content).toBe('b')
  })

  it('nothing listening on a loopback port fails at once', async () => {
    const s = await startRouteServer({})
    const root = s.root
    await s.close()
    const c = new OllamaNativeClient({ baseURL: `${root}/v1` }, { numCtx: null }, { fetch })
    const err = (await run(c).catch((e: unknown) => e)) as LlmError
    expect(err.code).toBe('network')
    expect(err.message).toMatch(/nothing is listening at/)
  })
})

describe('stopping an Ollama answer', () => {
  it('aborts the request and keeps what came', async () => {
    const s = await ollama({ ndjson: [line({ content: 'Half an ans' })], end: 'hang' })
    const stop = new AbortController()
    const err = (await client(s)
      .streamChat(
        { model: 'qwen3', messages: [{ role: 'user', content: 'hi' }] },
        { signal: stop.signal, onDelta: () => stop.abort() },
      )
      .catch((e: unknown) => e)) as LlmError
    expect(err.code).toBe('aborted')
    expect(err.abortKind).toBe('stop')
    expect(err.partial?.content).toBe('Half an ans')
  })
})

describe('what goes with an Ollama request', () => {
  it("the provider's key, unless its headers set their own Authorization", async () => {
    const s = await ollama(
      { ndjson: [line({ content: 'a' }), done()] },
      { ndjson: [line({ content: 'b' }), done()] },
    )
    const req = { model: 'qwen3', messages: [{ role: 'user' as const, content: 'hi' }] }
    const opts = { signal: new AbortController().signal, onDelta: () => {} }
    await new OllamaNativeClient(
      { baseURL: `${s.root}/v1`, apiKey: 'k1' },
      { numCtx: null },
      { fetch },
    ).streamChat(req, opts)
    await new OllamaNativeClient(
      { baseURL: `${s.root}/v1`, apiKey: 'k1', headers: { Authorization: 'Basic abc' } },
      { numCtx: null },
      { fetch },
    ).streamChat(req, opts)
    expect(s.requests.map((r) => r.headers['authorization'])).toEqual(['Bearer k1', 'Basic abc'])
  })

  it('a line too long to be Ollama talking is refused, not buffered', async () => {
    const s = await ollama({ text: 'x'.repeat(9_000_000), contentType: 'application/x-ndjson' })
    const err = (await run(client(s)).catch((e: unknown) => e)) as LlmError
    expect(err.code).toBe('bad_response')
    expect(err.message).toContain('sent a line of more than 8000000 characters')
  })
})
