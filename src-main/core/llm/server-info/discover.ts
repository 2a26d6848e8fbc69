/**
 * Finds out what kind of server a base URL is and what it says about one model: its
 * capabilities and its context window. Every answer is validated; what cannot be read is
 * reported in `problems`, never thrown. Results are cached per base URL (the kind) and per
 * base URL and model (the model's info) for the life of the process.
 */
import {
  KIND_CAPABILITIES,
  UNKNOWN_MODEL,
  thinkingControlByName,
  type KindCapabilities,
  type ModelCapabilities,
  type ProviderKind,
} from './capabilities'
import { ServerInfoError, fetchJson, serverRoot, type InfoFetchOptions } from './fetch-json'
import {
  LlamaCppProps,
  LmStudioModels,
  VllmModels,
  cairnLocalModelInfo,
  llamaCppModelInfo,
  lmStudioModelInfo,
  openRouterModelInfo,
  type ListedModelInfo,
} from './model-lists'
import type { ModelPriceRates } from '../../../../src-preload/contract/usage'
import { OllamaVersion, ollamaModelInfo, type OllamaModelInfo } from './ollama-info'

export interface ServerModelInfo {
  kind: ProviderKind
  kindCapabilities: KindCapabilities
  capabilities: ModelCapabilities
  /** the window the server says it runs the model with (not for Ollama: see `ollama`) */
  contextWindow: number | null
  contextSource: string | null
  /** Ollama's own figures (trained, Modelfile and loaded context) */
  ollama: OllamaModelInfo | null
  /** the price the server publishes for the model (OpenRouter's list), per million tokens */
  price: ModelPriceRates | null
  /** answers that could not be read, for a notice */
  problems: string[]
}

/** How long what a server said about a model is believed (a model may be reloaded with another window). */
const MODEL_INFO_TTL_MS = 5 * 60_000

const kinds = new Map<string, Promise<ProviderKind>>()
const models = new Map<string, { at: number; info: Promise<ServerModelInfo> }>()

/** Forgets what servers said (all of them, or one base URL's). */
export function forgetServerInfo(baseURL?: string): void {
  if (baseURL === undefined) {
    kinds.clear()
    models.clear()
    return
  }
  const base = baseURL.replace(/\/+$/, '')
  kinds.delete(base)
  for (const key of [...models.keys()]) if (key.startsWith(`${base}\n`)) models.delete(key)
}

/** The kind of server at `baseURL`: by its host for the big clouds, else by probing. */
export function detectKind(baseURL: string, opts: InfoFetchOptions): Promise<ProviderKind> {
  const base = baseURL.replace(/\/+$/, '')
  let known = kinds.get(base)
  if (!known) {
    const probed = probeKind(base, opts)
    // a server that did not answer at all (not started yet) is asked again next time
    const kind = probed.then((p) => p.kind)
    void probed.then((p) => {
      if (!p.answered && kinds.get(base) === kind) kinds.delete(base)
    })
    known = kind
    kinds.set(base, kind)
  }
  return known
}

async function probeKind(
  base: string,
  opts: InfoFetchOptions,
): Promise<{ kind: ProviderKind; answered: boolean }> {
  const host = URL.parse(base)?.hostname
  if (host === undefined) return { kind: 'openai-compatible', answered: true }
  if (host === 'openrouter.ai' || host.endsWith('.openrouter.ai'))
    return { kind: 'openrouter', answered: true }
  if (host === 'api.openai.com') return { kind: 'openai', answered: true }
  const root = serverRoot(base)
  const probe = { ...opts, timeoutMs: opts.timeoutMs ?? 1_500 }
  let answered = false
  const quiet = <T>(p: Promise<T>): Promise<T | null> =>
    p.then(
      (v) => ((answered = true), v),
      (e: unknown) => {
        if (e instanceof ServerInfoError && e.answered) answered = true
        return null
      },
    )
  const [ollama, lmstudio, llamacpp, list] = await Promise.all([
    quiet(fetchJson(`${root}/api/version`, OllamaVersion, probe)),
    quiet(fetchJson(`${root}/api/v0/models`, LmStudioModels, probe)),
    quiet(fetchJson(`${root}/props`, LlamaCppProps, probe)),
    quiet(fetchJson(`${base}/models`, VllmModels, probe)),
  ])
  const kind: ProviderKind = list?.data.some((m) => m.owned_by === 'cairn-local')
    ? 'cairn-local'
    : ollama
      ? 'ollama'
      : lmstudio
        ? 'lmstudio'
        : llamacpp?.default_generation_settings
          ? 'llamacpp'
          : list?.data.some((m) => m.owned_by === 'vllm' || m.max_model_len !== undefined)
            ? 'vllm'
            : 'openai-compatible'
  return { kind, answered }
}

/** What the server at `baseURL` says about `model` (cached). */
export function discoverModel(
  baseURL: string,
  model: string,
  opts: InfoFetchOptions,
): Promise<ServerModelInfo> {
  const base = baseURL.replace(/\/+$/, '')
  const key = `${base}\n${model}`
  const now = performance.now()
  const known = models.get(key)
  if (known && now - known.at < MODEL_INFO_TTL_MS) return known.info
  const info = readModel(base, model, opts).then((read) => {
    // a server that could not be read, or did not answer at all, is asked again next time
    if (read.problems.length > 0 || !kinds.has(base)) models.delete(key)
    return read
  })
  models.set(key, { at: now, info })
  return info
}

async function readModel(
  base: string,
  model: string,
  opts: InfoFetchOptions,
): Promise<ServerModelInfo> {
  const kind = await detectKind(base, opts)
  const info: ServerModelInfo = {
    kind,
    kindCapabilities: KIND_CAPABILITIES[kind],
    capabilities: { ...UNKNOWN_MODEL },
    contextWindow: null,
    contextSource: null,
    ollama: null,
    price: null,
    problems: [],
  }
  const root = serverRoot(base)
  const listed = (l: ListedModelInfo | null): void => {
    if (!l) return
    info.capabilities = l.capabilities
    info.contextWindow = l.contextWindow
    info.contextSource = l.contextSource
    info.price = l.price ?? null
  }
  try {
    switch (kind) {
      case 'ollama':
        info.ollama = await ollamaModelInfo(root, model, opts)
        info.capabilities = info.ollama.capabilities
        break
      case 'lmstudio':
        listed(await lmStudioModelInfo(root, model, opts))
        break
      case 'llamacpp':
        listed(await llamaCppModelInfo(root, model, opts))
        break
      case 'openrouter':
        listed(await openRouterModelInfo(base, model, opts))
        break
      case 'cairn-local':
        listed(await cairnLocalModelInfo(base, model, opts))
        break
      case 'vllm': {
        const list = await fetchJson(`${base}/models`, VllmModels, opts)
        const len = list.data.find((m) => m.id === model)?.max_model_len ?? null
        info.contextWindow = len
        info.contextSource = len ? 'vLLM model list (max_model_len)' : null
        break
      }
      case 'openai':
      case 'openai-compatible':
        break
    }
  } catch (err) {
    info.problems.push((err as Error).message)
  }
  if (info.capabilities.thinkingControl === null) {
    const control = thinkingControlByName(kind, model)
    if (control) info.capabilities = { ...info.capabilities, thinkingControl: control }
  }
  return info
}
