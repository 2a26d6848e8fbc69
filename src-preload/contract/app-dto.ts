/** DTOs of the app's routes beyond the agent's own (settings, providers, turn logs, app info). */
import type { LimitsSettings, ProviderSettings, SettingsData } from './settings-schema'

export type ProviderView = ProviderSettings & {
  /** the stored API key, masked (`sk-…abcd`), or null when none is stored; never the key */
  apiKey: string | null
}

/** The limits of one turn (the agent loop's, from settings): see `limitsSchema`. */
export type LimitsView = LimitsSettings

/** What `settings.get` returns: the settings, with every secret masked. */
export type SettingsView = Pick<
  SettingsData,
  | 'activeProviderId'
  | 'activeModel'
  | 'permissionPolicy'
  | 'alwaysAllow'
  | 'limits'
  | 'logRetentionDays'
  | 'builtinTools'
  | 'defaultWorkspace'
  | 'systemPrompt'
  | 'generateTitles'
  | 'voice'
  | 'localModels'
  | 'usage'
  | 'attachments'
  | 'mcpRegistryUrl'
> & { providers: ProviderView[]; mcp: McpSettingsView }

/** The MCP settings as `settings.get` shows them, with what an unset one falls back to. */
export type McpSettingsView = SettingsData['mcp'] & {
  /** the address of the client metadata document Cairn publishes (the setting's default) */
  defaultClientMetadataUrl: string
}

/** A built-in tool, as the settings list it. */
export interface BuiltinToolInfo {
  name: string
  /** a short human title */
  title: string
  description: string
  /** the tool says it only reads (the read-only policy runs it without asking) */
  readOnly: boolean
}

/** A local OpenAI-compatible server, as probed (GET /models with a short timeout). */
export interface LocalServerStatus {
  name: string
  baseURL: string
  reachable: boolean
  models: string[]
  /** why it is not reachable; null when it is */
  error: string | null
}

/** What a server is and says about one model (see `providers.info`). */
export interface ServerInfoView {
  /** `ollama`, `lmstudio`, `llamacpp`, `vllm`, `openrouter`, `openai`, `openai-compatible` */
  kind: string
  /** the model's own capabilities (null: not asked, or the server did not say) */
  model: {
    tools: boolean | null
    vision: boolean | null
    thinking: boolean | null
    /** how its thinking is switched (`reasoning_effort`, `think`, `enable_thinking`, `reasoning`); null: it cannot be */
    thinkingControl: string | null
  } | null
  /** the context window a turn would use, and where it comes from */
  contextWindow: { tokens: number; source: string } | null
  /** Ollama: the model's trained context */
  trainedContext: number | null
  /** what the server answered that could not be read */
  problems: string[]
}

export interface ProviderStatus {
  /** a provider is configured: the active one in the settings, or the environment's */
  configured: boolean
  source: 'settings' | 'env' | null
  /** the provider's name or base URL */
  label: string | null
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
