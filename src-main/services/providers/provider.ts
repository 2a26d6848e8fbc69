import type { ProviderSettings } from '../../../src-preload/contract/settings-schema'
import type { LocalRuntime } from './local-runtime'

/**
 * Which endpoint a turn talks to. Flags beat the environment, the environment beats
 * settings; with nothing configured, the usual local servers are tried.
 */
export interface ProviderFlags {
  /** a provider of the settings by id, or `local` (the CLI's `--provider`) */
  provider?: string
  baseUrl?: string
  apiKey?: string
  model?: string
}

export type ConfiguredProvider = ProviderSettings

export interface ProviderSources {
  flags: ProviderFlags
  env: NodeJS.ProcessEnv
  /** the settings' active provider, if any */
  active: ConfiguredProvider | null
  activeModel: string | null
  /** the key stored for the active provider */
  storedKey: (providerId: string) => string | undefined
}

export interface ProviderChoice {
  baseURL: string
  apiKey?: string
  headers?: Record<string, string>
  /** the model the configuration names (a session may keep its own) */
  model?: string
  /** the model for utility work (summaries): `CAIRN_UTILITY_MODEL`, else the provider's setting */
  utilityModel?: string
  /** the models accept images (from the provider's settings) */
  imageInput?: boolean
  /** the provider's settings for the server's own API and the model's thinking */
  options?: ProviderOptions
  /** where the base URL came from */
  source: 'flag' | 'env' | 'settings'
  label: string
  /** the built-in `local` provider: the runtime process this address belongs to */
  local?: { runtime: LocalRuntime; generation: number }
}

export type ProviderOptions = Pick<
  ProviderSettings,
  'ollamaNativeApi' | 'ollamaMaxContext' | 'keepAlive' | 'thinking' | 'contextWindows'
>

function providerOptions(p: ProviderSettings): ProviderOptions {
  const o: ProviderOptions = {}
  if (p.ollamaNativeApi !== undefined) o.ollamaNativeApi = p.ollamaNativeApi
  if (p.ollamaMaxContext !== undefined) o.ollamaMaxContext = p.ollamaMaxContext
  if (p.keepAlive !== undefined) o.keepAlive = p.keepAlive
  if (p.thinking !== undefined) o.thinking = p.thinking
  if (p.contextWindows !== undefined) o.contextWindows = p.contextWindows
  return o
}

export function normalizeBaseURL(url: string): string {
  return url.trim().replace(/\/+$/, '')
}

export function resolveProvider(s: ProviderSources): ProviderChoice | null {
  const env = s.env
  const envBase = env['CAIRN_BASE_URL'] || env['OPENAI_BASE_URL']
  const envKey = env['CAIRN_API_KEY'] || env['OPENAI_API_KEY']
  const flagOrEnvKey = s.flags.apiKey ?? (envKey || undefined)
  const model = s.flags.model ?? (env['CAIRN_MODEL'] || undefined)

  let choice: ProviderChoice | null = null
  if (s.flags.baseUrl) {
    choice = { baseURL: normalizeBaseURL(s.flags.baseUrl), source: 'flag', label: s.flags.baseUrl }
  } else if (envBase) {
    choice = { baseURL: normalizeBaseURL(envBase), source: 'env', label: envBase }
  } else if (s.active) {
    const key = flagOrEnvKey ?? s.storedKey(s.active.id)
    choice = {
      baseURL: normalizeBaseURL(s.active.baseURL),
      source: 'settings',
      label: s.active.name,
      ...(key ? { apiKey: key } : {}),
      ...(s.active.headers ? { headers: s.active.headers } : {}),
      ...(s.active.imageInput !== undefined ? { imageInput: s.active.imageInput } : {}),
      options: providerOptions(s.active),
    }
    const configuredModel = model ?? s.activeModel ?? s.active.defaultModel
    if (configuredModel) choice.model = configuredModel
    const utility = env['CAIRN_UTILITY_MODEL'] || s.active.utilityModel
    if (utility) choice.utilityModel = utility
    return choice
  }
  if (!choice) return null
  if (env['CAIRN_UTILITY_MODEL']) choice.utilityModel = env['CAIRN_UTILITY_MODEL']
  if (flagOrEnvKey) choice.apiKey = flagOrEnvKey
  const configuredModel = model ?? s.activeModel ?? undefined
  if (configuredModel) choice.model = configuredModel
  return choice
}

export interface LocalServer {
  name: string
  baseURL: string
}

export const LOCAL_SERVERS: LocalServer[] = [
  { name: 'Ollama', baseURL: 'http://127.0.0.1:11434/v1' },
  { name: 'LM Studio', baseURL: 'http://127.0.0.1:1234/v1' },
  { name: 'llama.cpp', baseURL: 'http://127.0.0.1:8080/v1' },
]

/** The local servers to probe: `CAIRN_LOCAL_SERVERS` (comma-separated base URLs) or the usual ones. */
export function localServerCandidates(env: NodeJS.ProcessEnv): LocalServer[] {
  const custom = env['CAIRN_LOCAL_SERVERS']
  if (!custom) return LOCAL_SERVERS
  return custom
    .split(',')
    .map((u) => u.trim())
    .filter(Boolean)
    .map((u) => ({ name: u, baseURL: normalizeBaseURL(u) }))
}

export interface LocalServerProbe extends LocalServer {
  reachable: boolean
  /** the models it serves ([] when unreachable) */
  models: string[]
  /** why it is not reachable (null when it is) */
  error: string | null
}

function probeError(e: unknown, timeoutMs: number): string {
  const err = e as { name?: string; cause?: { code?: string } }
  if (err.name === 'TimeoutError' || err.name === 'AbortError')
    return `no answer within ${timeoutMs} ms`
  const code = err.cause?.code
  if (code === 'ECONNREFUSED') return 'nothing is listening there'
  if (code === 'ENOTFOUND') return 'the host name is unknown'
  const cause = err.cause as { message?: unknown } | undefined
  if (typeof cause?.message === 'string' && cause.message) return cause.message
  return e instanceof Error ? e.message : String(e)
}

/** Probes one server: GET <baseURL>/models with a short timeout. Never throws. */
export async function probeLocalServer(c: LocalServer, timeoutMs = 800): Promise<LocalServerProbe> {
  try {
    const res = await fetch(`${c.baseURL}/models`, { signal: AbortSignal.timeout(timeoutMs) })
    if (!res.ok) {
      await res.body?.cancel()
      return { ...c, reachable: false, models: [], error: `it answered HTTP ${res.status}` }
    }
    const body = (await res.json()) as { data?: { id?: unknown }[] }
    const models = (Array.isArray(body.data) ? body.data : [])
      .map((m) => m?.id)
      .filter((id): id is string => typeof id === 'string')
    return { ...c, reachable: true, models, error: null }
  } catch (e) {
    return { ...c, reachable: false, models: [], error: probeError(e, timeoutMs) }
  }
}

/** Probes every candidate at once; the results in list order. */
export function probeLocalServers(
  candidates: LocalServer[],
  timeoutMs = 800,
): Promise<LocalServerProbe[]> {
  return Promise.all(candidates.map((c) => probeLocalServer(c, timeoutMs)))
}

/** The first candidate in list order that answers, with its models (all probed at once). */
export async function detectLocalServer(
  candidates: LocalServer[],
  timeoutMs = 800,
): Promise<(LocalServer & { models: string[] }) | null> {
  for (const p of await probeLocalServers(candidates, timeoutMs))
    if (p.reachable) return { name: p.name, baseURL: p.baseURL, models: p.models }
  return null
}

export function noProviderHelp(candidates: LocalServer[]): string {
  const tried = candidates.map((c) => `${c.name} (${c.baseURL})`).join(', ')
  return [
    'No model provider is configured, and no local server answered.',
    `Tried: ${tried}.`,
    'Configure one of these ways:',
    '  - start a local server (Ollama, LM Studio or llama.cpp) and run cairn again;',
    '  - set CAIRN_BASE_URL (and CAIRN_API_KEY if the server needs a key) and CAIRN_MODEL, e.g.',
    '      export CAIRN_BASE_URL=https://api.example.com/v1 CAIRN_MODEL=my-model CAIRN_API_KEY=...',
    '  - or pass --base-url <url> --model <name> on the command line.',
  ].join('\n')
}
