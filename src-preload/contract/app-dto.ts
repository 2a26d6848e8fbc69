/** DTOs of the app's routes beyond the agent's own (settings, providers, turn logs, app info). */
import type { PermissionPolicy } from './dto'

export interface ProviderView {
  id: string
  name: string
  baseURL: string
  defaultModel?: string
  headers?: Record<string, string>
  imageInput?: boolean
  /** the stored API key, masked (`sk-…abcd`), or null when none is stored; never the key */
  apiKey: string | null
}

export interface LimitsView {
  maxIterations: number
  maxToolExecutions: number
  deadlineMs: number
  maxToolOutputChars: number
  loopThreshold: number
  loopMaxWarnings: number
  stopOnToolFailure: boolean
  stopOnDenied: boolean
  maxRetries: number
  idleTimeoutMs: number
  contextTokens: number
}

/** What `settings.get` returns: the settings, with every secret masked. */
export interface SettingsView {
  providers: ProviderView[]
  activeProviderId: string | null
  activeModel: string | null
  permissionPolicy: PermissionPolicy
  alwaysAllow: { server: string; tool: string; fingerprint: string; createdAt: number }[]
  limits: LimitsView
  logRetentionDays: number
  builtinTools: { disabled: string[] }
  defaultWorkspace: string | null
  systemPrompt: string | null
}

export interface TurnLogItem {
  number: number
  request: unknown
  response: unknown
}

export interface AppInfo {
  name: 'Cairn'
  version: string
  dataDir: string
  host: 'electron' | 'web'
  platform: string
}
