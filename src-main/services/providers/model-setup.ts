/**
 * What a turn needs to know about its model before the first request: the client to talk
 * to it with (Ollama's native API where it is Ollama and the provider allows it, else the
 * OpenAI-compatible one), its context window, what it takes (tools, images, a thinking
 * switch) and what the user should be told about it. Asks the server once per provider
 * and model (see `discoverModel`); a server that says nothing changes nothing.
 */
import { LlmClient } from '../../core/llm/client'
import { OllamaNativeClient } from '../../core/llm/ollama/ollama-client'
import { thinkingParams } from '../../core/llm/server-info/capabilities'
import {
  explainContextOverflow,
  isContextOverflow,
} from '../../core/llm/server-info/context-overflow'
import { chooseContextWindow, type WindowChoice } from '../../core/llm/server-info/context-window'
import { discoverModel, type ServerModelInfo } from '../../core/llm/server-info/discover'
import { serverRoot } from '../../core/llm/server-info/fetch-json'
import type { LlmEndpoint } from '../../core/llm/types'
import { guardLocalClient } from './local-provider'
import type { Fetch } from '../../core/ports'
import type { ProviderChoice, ProviderOptions } from './provider'

/** The largest num_ctx asked of Ollama unless the provider's settings say otherwise. */
export const DEFAULT_OLLAMA_MAX_CONTEXT = 32_768

/** Notices already given in this process (by provider, model and text): each is said once. */
const told = new Set<string>()

export interface ModelSetup {
  client: Pick<LlmClient, 'streamChat' | 'buildBody'> & Partial<Pick<LlmClient, 'complete'>>
  /** where requests go, for the turn log: the base URL, or Ollama's native `…/api/chat` */
  requestURL: string
  window: WindowChoice
  info: ServerModelInfo | null
  /** TurnDeps.llm's model-specific fields */
  llm: {
    imageInput?: boolean
    attachedImages?: boolean
    tools?: boolean
    params?: Record<string, unknown>
    notices?: string[]
  }
}

/** What `setupModel` takes besides the provider and the model. */
export interface SetupOptions {
  fallbackWindow: number
  override?: number
  /** the thinking switch for this turn, over the provider's */
  thinking?: boolean
  /** default: the runtime's fetch */
  fetch?: Fetch
  signal?: AbortSignal
}

export async function setupModel(
  provider: ProviderChoice,
  model: string,
  o: SetupOptions,
): Promise<ModelSetup> {
  const viaFetch = o.fetch ?? fetch
  const options: ProviderOptions = {
    ...provider.options,
    ...(o.thinking !== undefined ? { thinking: o.thinking } : {}),
  }
  const info = await modelInfo(provider, model, viaFetch, o.signal)
  const native = info.kind === 'ollama' && options.ollamaNativeApi !== false
  const window = chooseContextWindow(info, model, {
    ...(o.override !== undefined ? { override: o.override } : {}),
    ...(options.contextWindows?.[model] !== undefined
      ? { perModel: options.contextWindows[model] }
      : {}),
    ollamaNative: native,
    ollamaMaxContext: options.ollamaMaxContext ?? DEFAULT_OLLAMA_MAX_CONTEXT,
    fallback: o.fallbackWindow,
  })
  const caps = info.capabilities
  const base = modelClient(provider, native ? { window, caps, options } : null, viaFetch)
  const fresh = freshNotices(provider, model, window, info)
  const params = native ? {} : thinkingParams(caps.thinkingControl, options.thinking)
  const imageInput = caps.vision ?? provider.imageInput === true
  const attachedImages = seesAttachedImages(provider, info)
  const client = explaining(base, window, info)
  return {
    client: provider.local ? guardLocalClient(client, provider.local) : client,
    requestURL: native ? `${serverRoot(provider.baseURL)}/api/chat` : provider.baseURL,
    window,
    info,
    llm: {
      ...(imageInput ? { imageInput: true } : {}),
      ...(attachedImages ? {} : { attachedImages: false }),
      ...(caps.tools === false ? { tools: false } : {}),
      ...(Object.keys(params).length > 0 ? { params } : {}),
      ...(fresh.length > 0 ? { notices: fresh } : {}),
    },
  }
}

/**
 * The client a turn talks to the model with: Ollama's native API (`native`: what it needs
 * to know of the model) or the OpenAI-compatible one.
 */
function modelClient(
  provider: ProviderChoice,
  native: {
    window: WindowChoice
    caps: ServerModelInfo['capabilities']
    options: ProviderOptions
  } | null,
  viaFetch: Fetch,
): ModelSetup['client'] {
  const endpoint: LlmEndpoint = {
    baseURL: provider.baseURL,
    ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
    ...(provider.headers ? { headers: provider.headers } : {}),
  }
  const fetchOpt = { fetch: viaFetch }
  if (!native) return new LlmClient(endpoint, fetchOpt)
  const { window, caps, options } = native
  return new OllamaNativeClient(
    endpoint,
    {
      numCtx: window.ollamaNumCtx,
      ...(options.keepAlive !== undefined ? { keepAlive: options.keepAlive } : {}),
      // `think` goes only to a model that says it thinks (others refuse it)
      ...(caps.thinking === true ? { think: options.thinking ?? true } : {}),
    },
    fetchOpt,
  )
}

/** What the user should know about the model and its window, each said once a process. */
function freshNotices(
  provider: ProviderChoice,
  model: string,
  window: WindowChoice,
  info: ServerModelInfo,
): string[] {
  const notices: string[] = []
  if (window.notice) notices.push(window.notice)
  for (const p of info.problems)
    notices.push(`What the server says about ${model} could not be read: ${p}`)
  return notices.filter((n) => {
    const key = `${provider.baseURL}\n${model}\n${n}`
    if (told.has(key)) return false
    told.add(key)
    return true
  })
}

/** What the server says about the model (asked once per provider and model while Cairn runs). */
function modelInfo(
  provider: ProviderChoice,
  model: string,
  viaFetch: Fetch,
  signal?: AbortSignal,
): Promise<ServerModelInfo> {
  return discoverModel(provider.baseURL, model, {
    fetch: viaFetch,
    ...(signal ? { signal } : {}),
    // the same origin the key and headers are for (a vLLM or a proxy may want them)
    headers: {
      ...provider.headers,
      ...(provider.apiKey ? { authorization: `Bearer ${provider.apiKey}` } : {}),
    },
  })
}

/**
 * Whether the images a user attaches are sent: unless the server says the model cannot see
 * (or the provider's image setting is off), they are.
 */
function seesAttachedImages(provider: ProviderChoice, info: ServerModelInfo): boolean {
  return info.capabilities.vision ?? provider.imageInput ?? true
}

/** Whether the model takes attached images, asked before a message with images is sent. */
export async function modelSeesAttachedImages(
  provider: ProviderChoice,
  model: string,
  o: { fetch?: Fetch; signal?: AbortSignal } = {},
): Promise<boolean> {
  return seesAttachedImages(provider, await modelInfo(provider, model, o.fetch ?? fetch, o.signal))
}

/** The client, with a "too long for the context" refusal explained. */
function explaining(
  client: ModelSetup['client'],
  window: WindowChoice,
  info: ServerModelInfo,
): ModelSetup['client'] {
  const complete = client.complete?.bind(client)
  return {
    buildBody: (req) => client.buildBody(req),
    // the non-streamed call that writes summaries, where the client has one
    ...(complete ? { complete } : {}),
    streamChat: async (req, opts) => {
      try {
        return await client.streamChat(req, opts)
      } catch (e) {
        throw isContextOverflow(e) ? explainContextOverflow(e, window, info.kind) : e
      }
    },
  }
}
