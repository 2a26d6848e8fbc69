/**
 * A provider being added or edited: its fields as typed, the checks the contract makes
 * (`providerInput`: id 1–200 characters, name up to 200, an http(s) base URL, a model name
 * up to 500), said next to the field, and the one update that saves it.
 */
import type { ProviderView, SettingsView } from '../../../../src-preload/contract/app-dto'
import type { ProviderPreset } from '../../state/provider-presets'
import type { SettingsPatch } from '../../ui/forms/use-save-settings'

export interface ProviderDraft {
  id: string
  name: string
  baseURL: string
  defaultModel: string
  /** the model that writes summaries (empty: the chat's own model) */
  utilityModel: string
  /** typed key; empty keeps the saved one */
  apiKey: string
  /** remove the saved key on save */
  removeKey: boolean
  /** Ollama: its native API (on unless switched off) */
  ollamaNativeApi: boolean
  /** Ollama: the largest num_ctx, as typed (empty: the default) */
  ollamaMaxContext: string
  /** Ollama: keep_alive as typed (empty: Ollama's default) */
  keepAlive: string
  /** the model's thinking, where it can be switched */
  thinking: 'default' | 'on' | 'off'
}

export type DraftErrors = Partial<
  Record<
    'id' | 'name' | 'baseURL' | 'defaultModel' | 'utilityModel' | 'ollamaMaxContext' | 'keepAlive',
    string
  >
>

/** What a new draft has for the server's own options. */
const SERVER_DEFAULTS = {
  ollamaNativeApi: true,
  ollamaMaxContext: '',
  keepAlive: '',
  thinking: 'default',
} as const

/** The first free id from the preset's (`ollama`, `ollama-2`, …). */
export function freeId(base: string, taken: readonly string[]): string {
  const root = base || 'provider'
  if (!taken.includes(root)) return root
  for (let n = 2; ; n++) if (!taken.includes(`${root}-${n}`)) return `${root}-${n}`
}

export function draftFromPreset(p: ProviderPreset, taken: readonly string[]): ProviderDraft {
  return {
    id: freeId(p.id, taken),
    name: p.id === 'custom' ? '' : p.name,
    baseURL: p.baseURL,
    defaultModel: '',
    utilityModel: '',
    apiKey: '',
    removeKey: false,
    ...SERVER_DEFAULTS,
  }
}

export function draftFromProvider(p: ProviderView): ProviderDraft {
  return {
    id: p.id,
    name: p.name,
    baseURL: p.baseURL,
    defaultModel: p.defaultModel ?? '',
    utilityModel: p.utilityModel ?? '',
    apiKey: '',
    removeKey: false,
    ollamaNativeApi: p.ollamaNativeApi !== false,
    ollamaMaxContext: p.ollamaMaxContext === undefined ? '' : String(p.ollamaMaxContext),
    keepAlive: p.keepAlive ?? '',
    thinking: p.thinking === undefined ? 'default' : p.thinking ? 'on' : 'off',
  }
}

export function httpURLProblem(value: string): string | null {
  const v = value.trim()
  if (!v) return 'Enter the base URL, like http://127.0.0.1:11434/v1.'
  let url: URL
  try {
    url = new URL(v)
  } catch {
    return 'This is not a URL. It starts with http:// or https://.'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'The base URL must start with http:// or https://.'
  return null
}

/**
 * What is wrong with the draft, field by field (empty: nothing). `otherIds` are the ids of
 * the other providers.
 */
export function checkDraft(d: ProviderDraft, otherIds: readonly string[]): DraftErrors {
  const e: DraftErrors = {}
  const name = d.name.trim()
  if (!name) e.name = 'Enter a name.'
  else if (name.length > 200) e.name = 'At most 200 characters.'
  const id = d.id.trim()
  if (!id) e.id = 'Enter an id.'
  else if (id.length > 200) e.id = 'At most 200 characters.'
  else if (otherIds.includes(id)) e.id = `Another provider already has the id “${id}”.`
  const url = httpURLProblem(d.baseURL)
  if (url) e.baseURL = url
  if (d.defaultModel.trim().length > 500) e.defaultModel = 'At most 500 characters.'
  if (d.utilityModel.trim().length > 500) e.utilityModel = 'At most 500 characters.'
  const max = d.ollamaMaxContext.trim()
  if (max && !(/^\d+$/.test(max) && Number(max) >= 256 && Number(max) <= 10_000_000))
    e.ollamaMaxContext = 'A whole number of tokens from 256 to 10 000 000, or empty for 32 768.'
  if (d.keepAlive.trim() && !/^-?[0-9]+(ms|s|m|h)?$/.test(d.keepAlive.trim()))
    e.keepAlive = 'Seconds, or a duration such as 30s, 5m or 1h; -1 keeps the model loaded.'
  return e
}

/** The provider fields of the server's own options (what is left at its default is left out). */
function serverOptions(d: ProviderDraft): Record<string, unknown> {
  const o: Record<string, unknown> = {}
  if (!d.ollamaNativeApi) o['ollamaNativeApi'] = false
  if (d.ollamaMaxContext.trim()) o['ollamaMaxContext'] = Number(d.ollamaMaxContext.trim())
  if (d.keepAlive.trim()) o['keepAlive'] = d.keepAlive.trim()
  if (d.thinking !== 'default') o['thinking'] = d.thinking === 'on'
  return o
}

/**
 * The one update that saves the draft: the whole provider list with this one replaced (or
 * added), its key set or removed, and, when no provider is the default yet, this one.
 */
export function draftPatch(
  d: ProviderDraft,
  s: SettingsView,
  editing: string | null,
): SettingsPatch {
  const provider = {
    id: d.id.trim(),
    name: d.name.trim(),
    baseURL: d.baseURL.trim(),
    ...(d.defaultModel.trim() ? { defaultModel: d.defaultModel.trim() } : {}),
    ...(d.utilityModel.trim() ? { utilityModel: d.utilityModel.trim() } : {}),
    ...serverOptions(d),
  }
  const providers = s.providers.map(({ apiKey: _key, ...p }) => (p.id === editing ? provider : p))
  if (editing === null) providers.push(provider)
  const patch: SettingsPatch = { providers }
  if (d.apiKey) patch.apiKeys = { [provider.id]: d.apiKey }
  else if (d.removeKey) patch.apiKeys = { [provider.id]: null }
  if (!s.activeProviderId || !s.providers.some((p) => p.id === s.activeProviderId)) {
    patch.activeProviderId = provider.id
  }
  return patch
}

/** Removes a provider and its key; the default moves to the first one left. */
export function removalPatch(id: string, s: SettingsView): SettingsPatch {
  const providers = s.providers.filter((p) => p.id !== id).map(({ apiKey: _key, ...p }) => p)
  const patch: SettingsPatch = { providers, apiKeys: { [id]: null } }
  if (s.activeProviderId === id) {
    patch.activeProviderId = providers[0]?.id ?? null
    patch.activeModel = null
  }
  return patch
}
