/**
 * What a turn learns about its model before the first request, against scripted servers of
 * each kind: the client it talks through, the window, and what the model is sent.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { OllamaNativeClient } from '../../src-main/core/llm/ollama/ollama-client'
import { forgetServerInfo } from '../../src-main/core/llm/server-info/discover'
import { LlmError } from '../../src-main/core/llm/types'
import { setupModel } from '../../src-main/services/providers/model-setup'
import type { ProviderChoice } from '../../src-main/services/providers/provider'
import { ollamaRoutes, startRouteServer, type RouteServer } from '../support/route-server'

let server: RouteServer | null = null
beforeEach(() => forgetServerInfo())
afterEach(async () => {
  await server?.close()
  server = null
})

const provider = (baseURL: string, extra: Partial<ProviderChoice> = {}): ProviderChoice => ({
  baseURL,
  source: 'flag',
  label: baseURL,
  ...extra,
})
const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
  id: 'c1',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'm',
  choices: [{ index: 0, delta, finish_reason: finish }],
})
const okStream = { sse: [chunk({ content: 'ok' }), chunk({}, 'stop')] }
const ask = (setup: Awaited<ReturnType<typeof setupModel>>, model: string) =>
  setup.client.streamChat(
    {
      model,
      messages: [{ role: 'user', content: 'hi' }],
      ...(setup.llm.params ? { params: setup.llm.params } : {}),
    },
    { signal: new AbortController().signal, onDelta: () => {} },
  )

describe('Ollama', () => {
  const routes = ollamaRoutes({
    model: 'qwen3',
    capabilities: ['completion', 'thinking'],
    trainedContext: 40_960,
    loadedContext: 4_096,
  })

  it('natively by default: num_ctx capped by the provider setting, think on, tools withheld', async () => {
    server = await startRouteServer({
      ...routes,
      'POST /api/chat': {
        ndjson: [{ message: { content: 'ok' }, done: true, done_reason: 'stop' }],
      },
    })
    const setup = await setupModel(
      provider(`${server.root}/v1`, { options: { ollamaMaxContext: 16_384, keepAlive: '30m' } }),
      'qwen3',
      { fallbackWindow: 32_768 },
    )
    expect(setup.window.tokens).toBe(16_384)
    // the server lists no vision: attached images are refused before sending
    expect(setup.llm).toEqual({ tools: false, attachedImages: false })
    await ask(setup, 'qwen3')
    const chat = server.requests.find((r) => r.path === '/api/chat')!
    expect(chat.body).toMatchObject({
      options: { num_ctx: 16_384 },
      keep_alive: '30m',
      think: true,
    })
  })

  it('the thinking switch of the provider reaches Ollama as think: false', async () => {
    server = await startRouteServer({
      ...routes,
      'POST /api/chat': { ndjson: [{ message: { content: 'ok' }, done: true }] },
    })
    const setup = await setupModel(
      provider(`${server.root}/v1`, { options: { thinking: false } }),
      'qwen3',
      { fallbackWindow: 32_768 },
    )
    await ask(setup, 'qwen3')
    expect(server.requests.find((r) => r.path === '/api/chat')!.body.think).toBe(false)
  })

  it('through its OpenAI-compatible endpoint when the provider says so: the loaded window, and a notice', async () => {
    server = await startRouteServer({ ...routes, 'POST /v1/chat/completions': okStream })
    const setup = await setupModel(
      provider(`${server.root}/v1`, { options: { ollamaNativeApi: false } }),
      'qwen3',
      { fallbackWindow: 32_768 },
    )
    expect(setup.window.tokens).toBe(4_096)
    expect(setup.llm.notices?.[0]).toContain("Use Ollama's native API")
    const result = await ask(setup, 'qwen3')
    expect(result.content).toBe('ok')
    expect(server.requests.some((r) => r.path === '/api/chat')).toBe(false)
    // the next turn is not told again
    const again = await setupModel(
      provider(`${server.root}/v1`, { options: { ollamaNativeApi: false } }),
      'qwen3',
      { fallbackWindow: 32_768 },
    )
    expect(again.window.tokens).toBe(4_096)
    expect(again.llm.notices).toBeUndefined()
  })
})

describe('LM Studio', () => {
  it('a vision model gets images without the manual setting; its loaded window is the window', async () => {
    server = await startRouteServer({
      'GET /api/v0/models': {
        json: {
          data: [
            {
              id: 'gemma-3-4b',
              type: 'vlm',
              loaded_context_length: 4_096,
              max_context_length: 131_072,
            },
          ],
        },
      },
      'POST /v1/chat/completions': okStream,
    })
    const setup = await setupModel(provider(`${server.root}/v1`), 'gemma-3-4b', {
      fallbackWindow: 32_768,
    })
    expect(setup.client).not.toBeInstanceOf(OllamaNativeClient)
    expect(setup.window).toMatchObject({
      tokens: 4_096,
      source: 'LM Studio (loaded context length)',
    })
    expect(setup.llm).toEqual({ imageInput: true })
  })

  it('a text model is not sent images even when the provider setting says so', async () => {
    server = await startRouteServer({
      'GET /api/v0/models': { json: { data: [{ id: 'qwen2.5-7b', type: 'llm' }] } },
    })
    const setup = await setupModel(
      provider(`${server.root}/v1`, { imageInput: true }),
      'qwen2.5-7b',
      {
        fallbackWindow: 32_768,
      },
    )
    expect(setup.llm.imageInput).toBeUndefined()
  })
})

describe('llama.cpp', () => {
  const props = {
    'GET /props': {
      json: { default_generation_settings: { n_ctx: 8_192 }, chat_template: 'enable_thinking' },
    },
  }

  it('Qwen 3 thinking is switched with chat_template_kwargs', async () => {
    server = await startRouteServer({ ...props, 'POST /v1/chat/completions': okStream })
    const setup = await setupModel(
      provider(`${server.root}/v1`, { options: { thinking: false } }),
      'Qwen3-8B',
      { fallbackWindow: 32_768 },
    )
    await ask(setup, 'Qwen3-8B')
    const sent = server.requests.find((r) => r.path === '/v1/chat/completions')!.body
    expect(sent.chat_template_kwargs).toEqual({ enable_thinking: false })
  })

  it('"exceeds the available context size" names the window and what to do', async () => {
    server = await startRouteServer({
      ...props,
      'POST /v1/chat/completions': {
        status: 400,
        json: {
          error: {
            code: 400,
            message: 'the request exceeds the available context size, try increasing it',
            type: 'exceed_context_size_error',
            n_prompt_tokens: 9_000,
            n_ctx: 8_192,
          },
        },
      },
    })
    const setup = await setupModel(provider(`${server.root}/v1`), 'any.gguf', {
      fallbackWindow: 32_768,
    })
    const err = (await ask(setup, 'any.gguf').catch((e: unknown) => e)) as LlmError
    expect(err).toBeInstanceOf(LlmError)
    expect(err.code).toBe('context_overflow')
    expect(err.message).toContain('context window of 8192 tokens (from llama.cpp /props (n_ctx))')
    expect(err.message).toContain('--ctx-size')
  })
})

describe('a server that wants the key', () => {
  it('is asked about its models with the provider key', async () => {
    server = await startRouteServer({
      'GET /v1/models': (req) =>
        req.headers['authorization'] === 'Bearer sk-vllm'
          ? { json: { data: [{ id: 'Qwen/Qwen3-8B', owned_by: 'vllm', max_model_len: 16_384 }] } }
          : { status: 401, json: { error: 'Unauthorized' } },
    })
    const setup = await setupModel(
      provider(`${server.root}/v1`, { apiKey: 'sk-vllm' }),
      'Qwen/Qwen3-8B',
      { fallbackWindow: 32_768 },
    )
    expect(setup.info?.kind).toBe('vllm')
    expect(setup.window).toMatchObject({
      tokens: 16_384,
      source: 'vLLM model list (max_model_len)',
    })
  })
})

describe('a server that says nothing', () => {
  it('keeps the OpenAI client, the settings window and the provider settings', async () => {
    server = await startRouteServer({ 'GET /v1/models': { json: { data: [{ id: 'm' }] } } })
    const setup = await setupModel(provider(`${server.root}/v1`, { imageInput: true }), 'm', {
      fallbackWindow: 20_000,
    })
    expect(setup.client).not.toBeInstanceOf(OllamaNativeClient)
    expect(setup.window).toMatchObject({ tokens: 20_000 })
    expect(setup.llm).toEqual({ imageInput: true })
    // the OpenAI body: what an OpenAI-compatible server reads
    expect(setup.client.buildBody({ model: 'm', messages: [] })).toMatchObject({
      stream: true,
      stream_options: { include_usage: true },
    })
  })
})
