import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  isOpenAiReasoningModel,
  thinkingParams,
} from '../../src-main/core/llm/server-info/capabilities'
import { chooseContextWindow } from '../../src-main/core/llm/server-info/context-window'
import {
  detectKind,
  discoverModel,
  forgetServerInfo,
} from '../../src-main/core/llm/server-info/discover'
import { openRouterModelInfo } from '../../src-main/core/llm/server-info/model-lists'
import { ollamaRoutes, startRouteServer, type RouteServer } from '../support/route-server'

const windowOpts = { ollamaNative: true, ollamaMaxContext: 65_536, fallback: 32_768 }
let server: RouteServer | null = null

beforeEach(() => forgetServerInfo())
afterEach(async () => {
  await server?.close()
  server = null
})

describe('Ollama', () => {
  const routes = ollamaRoutes({
    model: 'qwen3',
    capabilities: ['completion', 'tools', 'thinking'],
    trainedContext: 40_960,
    loadedContext: 4_096,
  })

  it('is recognised by /api/version and says what the model takes', async () => {
    server = await startRouteServer(routes)
    const info = await discoverModel(`${server.root}/v1`, 'qwen3', { fetch })
    expect(info.kind).toBe('ollama')
    expect(info.problems).toEqual([])
    expect(info.capabilities).toEqual({
      tools: true,
      vision: false,
      thinking: true,
      thinkingControl: 'think',
    })
    expect(info.ollama).toMatchObject({ trainedContext: 40_960, loadedContext: 4_096 })
  })

  it('native: num_ctx is the trained context, capped by the setting', async () => {
    server = await startRouteServer(routes)
    const info = await discoverModel(`${server.root}/v1`, 'qwen3', { fetch })
    expect(chooseContextWindow(info, 'qwen3', windowOpts)).toMatchObject({
      tokens: 40_960,
      ollamaNumCtx: 40_960,
      notice: null,
    })
    const capped = chooseContextWindow(info, 'qwen3', { ...windowOpts, ollamaMaxContext: 16_384 })
    expect(capped).toMatchObject({ tokens: 16_384, ollamaNumCtx: 16_384 })
  })

  it("a window the provider's settings give the model wins over the server's, but not over --context-window", async () => {
    server = await startRouteServer(routes)
    const info = await discoverModel(`${server.root}/v1`, 'qwen3', { fetch })
    const set = chooseContextWindow(info, 'qwen3', { ...windowOpts, perModel: 12_000 })
    expect(set).toMatchObject({ tokens: 12_000, ollamaNumCtx: 12_000 })
    expect(set.source).toContain("provider's settings for qwen3")
    const flag = chooseContextWindow(info, 'qwen3', {
      ...windowOpts,
      perModel: 12_000,
      override: 2_000,
    })
    expect(flag).toMatchObject({ tokens: 2_000, source: '--context-window' })
    // a server that is not Ollama: the setting still decides, and no num_ctx is sent
    expect(chooseContextWindow(null, 'gpt-4o', { ...windowOpts, perModel: 50_000 })).toMatchObject({
      tokens: 50_000,
      ollamaNumCtx: null,
    })
  })

  it('OpenAI-compatible path: the loaded num_ctx from /api/ps, and a notice when it is far below', async () => {
    server = await startRouteServer(routes)
    const info = await discoverModel(`${server.root}/v1`, 'qwen3', { fetch })
    const w = chooseContextWindow(info, 'qwen3', { ...windowOpts, ollamaNative: false })
    expect(w.tokens).toBe(4_096)
    expect(w.ollamaNumCtx).toBeNull()
    expect(w.source).toContain('/api/ps')
    expect(w.notice).toContain('4096 tokens')
    expect(w.notice).toContain("Use Ollama's native API")
  })

  it('a model Ollama says nothing about gets the largest window the setting allows, never a tiny one', async () => {
    server = await startRouteServer(ollamaRoutes({ model: 'my-tune' }))
    const info = await discoverModel(`${server.root}/v1`, 'my-tune', { fetch })
    const w = chooseContextWindow(info, 'my-tune', { ...windowOpts, fallback: 0 })
    expect(w).toMatchObject({ tokens: 65_536, ollamaNumCtx: 65_536 })
    const guessed = chooseContextWindow(info, 'my-tune', windowOpts)
    expect(guessed).toMatchObject({ tokens: 32_768, ollamaNumCtx: 32_768 })
  })

  it('a Modelfile num_ctx counts when the model is not loaded', async () => {
    server = await startRouteServer(
      ollamaRoutes({
        model: 'llama3.1',
        trainedContext: 131_072,
        parameters: 'num_ctx 8192\nstop "<|eot_id|>"',
      }),
    )
    const info = await discoverModel(`${server.root}/v1`, 'llama3.1', { fetch })
    const w = chooseContextWindow(info, 'llama3.1', { ...windowOpts, ollamaNative: false })
    expect(w.tokens).toBe(8_192)
    expect(w.source).toContain('Modelfile')
  })

  it('a malformed /api/show is a problem in words, not a crash, and is asked again', async () => {
    server = await startRouteServer({
      ...routes,
      'POST /api/show': { json: { capabilities: 'tools' } },
    })
    const info = await discoverModel(`${server.root}/v1`, 'qwen3', { fetch })
    expect(info.kind).toBe('ollama')
    expect(info.capabilities.tools).toBeNull()
    expect(info.problems[0]).toMatch(
      /\/api\/show answered in a shape Cairn does not understand \(capabilities/,
    )
    const shows = () => server!.requests.filter((r) => r.path === '/api/show').length
    await discoverModel(`${server.root}/v1`, 'qwen3', { fetch })
    expect(shows()).toBe(2)
  })

  it('a server that was not running yet is asked again once it is', async () => {
    const first = await startRouteServer({})
    const port = Number(new URL(first.root).port)
    await first.close()
    const base = `http://127.0.0.1:${port}/v1`
    const before = await discoverModel(base, 'qwen3', { fetch })
    expect(before.kind).toBe('openai-compatible')
    server = await startRouteServer(routes, port)
    const after = await discoverModel(base, 'qwen3', { fetch })
    expect(after.kind).toBe('ollama')
    expect(after.capabilities.thinkingControl).toBe('think')
  })

  it('is cached per base URL and model', async () => {
    server = await startRouteServer(routes)
    await discoverModel(`${server.root}/v1`, 'qwen3', { fetch })
    await discoverModel(`${server.root}/v1`, 'qwen3', { fetch })
    expect(server.requests.filter((r) => r.path === '/api/show')).toHaveLength(1)
    expect(server.requests.filter((r) => r.path === '/api/version')).toHaveLength(1)
  })
})

describe('LM Studio', () => {
  it('reads the loaded context length, vision from the type and tools from capabilities', async () => {
    server = await startRouteServer({
      'GET /api/v0/models': {
        json: {
          object: 'list',
          data: [
            {
              id: 'qwen2-vl-7b',
              type: 'vlm',
              state: 'loaded',
              max_context_length: 32_768,
              loaded_context_length: 8_192,
              capabilities: ['tool_use'],
            },
            { id: 'llama-3.2-1b', type: 'llm', state: 'not-loaded', max_context_length: 131_072 },
          ],
        },
      },
    })
    const vl = await discoverModel(`${server.root}/v1`, 'qwen2-vl-7b', { fetch })
    expect(vl.kind).toBe('lmstudio')
    expect(vl.capabilities).toMatchObject({ vision: true, tools: true })
    expect(chooseContextWindow(vl, 'qwen2-vl-7b', windowOpts)).toMatchObject({ tokens: 8_192 })
    const llm = await discoverModel(`${server.root}/v1`, 'llama-3.2-1b', { fetch })
    // without native tool use LM Studio still takes tools (in its own prompt format)
    expect(llm.capabilities).toMatchObject({ vision: false, tools: null })
    expect(chooseContextWindow(llm, 'llama-3.2-1b', windowOpts).tokens).toBe(131_072)
  })
})

describe('llama.cpp', () => {
  it('reads n_ctx, vision, and the Qwen 3 thinking switch from /props', async () => {
    server = await startRouteServer({
      'GET /props': {
        json: {
          default_generation_settings: { n_ctx: 12_288, params: {} },
          total_slots: 1,
          modalities: { vision: false },
          chat_template: '{%- if enable_thinking is defined and enable_thinking is false %}',
        },
      },
    })
    const info = await discoverModel(`${server.root}/v1`, 'Qwen3-8B-Q4_K_M.gguf', { fetch })
    expect(info.kind).toBe('llamacpp')
    expect(info.capabilities).toMatchObject({ vision: false, thinkingControl: 'enable_thinking' })
    const w = chooseContextWindow(info, 'Qwen3-8B-Q4_K_M.gguf', windowOpts)
    expect(w).toMatchObject({ tokens: 12_288, source: 'llama.cpp /props (n_ctx)' })
  })
})

describe('OpenRouter', () => {
  it('reads context_length, supported_parameters and input modalities', async () => {
    server = await startRouteServer({
      'GET /api/v1/models': {
        json: {
          data: [
            {
              id: 'deepseek/deepseek-r1',
              context_length: 163_840,
              supported_parameters: ['reasoning', 'max_tokens'],
              architecture: { input_modalities: ['text'] },
            },
          ],
        },
      },
    })
    const info = await openRouterModelInfo(`${server.root}/api/v1`, 'deepseek/deepseek-r1', {
      fetch,
    })
    expect(info).toEqual({
      capabilities: { tools: false, vision: false, thinking: true, thinkingControl: 'reasoning' },
      contextWindow: 163_840,
      contextSource: 'OpenRouter model list (context_length)',
    })
  })

  it('an entry it cannot read is skipped, not the whole list', async () => {
    server = await startRouteServer({
      'GET /api/v1/models': {
        json: {
          data: [
            { name: 'no id' },
            { id: 'odd/model', context_length: 'long' },
            {
              id: 'meta-llama/llama-3.3-70b',
              context_length: 131_072,
              supported_parameters: ['tools'],
            },
          ],
        },
      },
    })
    const url = `${server.root}/api/v1`
    const info = await openRouterModelInfo(url, 'meta-llama/llama-3.3-70b', { fetch })
    expect(info?.contextWindow).toBe(131_072)
    expect(info?.capabilities.tools).toBe(true)
    await expect(openRouterModelInfo(url, 'odd/model', { fetch })).resolves.toBeNull()
  })

  it('is known by its host without probing', async () => {
    await expect(detectKind('https://openrouter.ai/api/v1', { fetch })).resolves.toBe('openrouter')
    await expect(detectKind('https://api.openai.com/v1', { fetch })).resolves.toBe('openai')
  })
})

describe('a plain OpenAI-compatible server', () => {
  it('says nothing: a known model gets the table, others the settings', async () => {
    server = await startRouteServer({
      'GET /v1/models': {
        json: { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model' }] },
      },
    })
    const info = await discoverModel(`${server.root}/v1`, 'gpt-4o-mini', { fetch })
    expect(info.kind).toBe('openai-compatible')
    expect(info.problems).toEqual([])
    expect(chooseContextWindow(info, 'gpt-4o-mini', windowOpts)).toMatchObject({
      tokens: 128_000,
      source: 'the table of known models',
    })
    expect(chooseContextWindow(info, 'my-finetune', windowOpts)).toMatchObject({ tokens: 32_768 })
    expect(
      chooseContextWindow(info, 'gpt-4o-mini', { ...windowOpts, override: 2_000 }),
    ).toMatchObject({ tokens: 2_000, source: '--context-window' })
  })

  it('a vLLM model list gives max_model_len and the Qwen 3 thinking switch', async () => {
    server = await startRouteServer({
      'GET /v1/models': {
        json: { data: [{ id: 'Qwen/Qwen3-32B', owned_by: 'vllm', max_model_len: 32_768 }] },
      },
    })
    const info = await discoverModel(`${server.root}/v1`, 'Qwen/Qwen3-32B', { fetch })
    expect(info.kind).toBe('vllm')
    expect(info.contextWindow).toBe(32_768)
    expect(info.capabilities.thinkingControl).toBe('enable_thinking')
  })
})

describe('thinking switches', () => {
  it('are sent only for a control the model has, and only when the user chose', () => {
    expect(isOpenAiReasoningModel('o3-mini')).toBe(true)
    expect(isOpenAiReasoningModel('openai/gpt-5')).toBe(true)
    expect(isOpenAiReasoningModel('gpt-4o')).toBe(false)
    expect(thinkingParams('reasoning_effort', false)).toEqual({ reasoning_effort: 'low' })
    expect(thinkingParams('enable_thinking', true)).toEqual({
      chat_template_kwargs: { enable_thinking: true },
    })
    expect(thinkingParams('reasoning', false)).toEqual({ reasoning: { enabled: false } })
    expect(thinkingParams('enable_thinking', undefined)).toEqual({})
    expect(thinkingParams(null, true)).toEqual({})
  })

  it('an OpenAI reasoning model gets reasoning_effort by its name', async () => {
    server = await startRouteServer({ 'GET /v1/models': { json: { data: [{ id: 'o4-mini' }] } } })
    const info = await discoverModel(`${server.root}/v1`, 'o4-mini', { fetch })
    expect(info.capabilities.thinkingControl).toBe('reasoning_effort')
    const plain = await discoverModel(`${server.root}/v1`, 'gpt-4o', { fetch })
    expect(plain.capabilities.thinkingControl).toBeNull()
  })
})
