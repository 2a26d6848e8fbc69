/** DTOs of the app's routes beyond the agent's own (settings, providers, turn logs, app info). */
import type { PermissionPolicy } from './dto'

export interface ProviderView {
  id: string
  name: string
  baseURL: string
  defaultModel?: string
  headers?: Record<string, string>
  imageInput?: boolean
  /** Ollama: its native API (default true) or its OpenAI-compatible /v1 */
  ollamaNativeApi?: boolean
  /** Ollama: the largest num_ctx asked for (default 32 768) */
  ollamaMaxContext?: number
  /** Ollama: how long the model stays loaded (`5m`, `1h`, `-1`) */
  keepAlive?: string
  /** the model thinks, where that can be switched; unset: the server's default */
  thinking?: boolean
  /** the stored API key, masked (`sk-…abcd`), or null when none is stored; never the key */
  apiKey: string | null
}

/** The limits of one turn (the agent loop's, from settings). */
export interface LimitsView {
  /** LLM calls per turn */
  maxIterations: number
  /** tool executions per turn */
  maxToolExecutions: number
  /** wall-clock budget of the whole turn */
  deadlineMs: number
  /** tool output above this is cut, with a marker the model can read */
  maxToolOutputChars: number
  /** the same call (tool + canonical arguments) this many times in a row is a loop */
  loopThreshold: number
  /** warnings given before a loop stops the turn */
  loopMaxWarnings: number
  stopOnToolFailure: boolean
  stopOnDenied: boolean
  /** LLM retries after the first attempt */
  maxRetries: number
  /** the stream watchdog */
  idleTimeoutMs: number
  /** estimated tokens a request may use; older tool output is shortened, then old turns left out (0: off) */
  contextTokens: number
  /** characters of one answer (text and reasoning): past it the stream is cut and the turn ends */
  maxAnswerChars: number
  /** tools of one MCP server given to the model; a server that offers more is warned about */
  maxToolsPerServer: number
  /** turns at the end whose tool results are sent whole; older ones are cut to 200 characters */
  keepToolResultsTurns?: number
  /** tools whose results are never cut (an authentication tool, say) */
  neverCompressTools?: string[]
  /** percent of the context window past which the middle of the conversation is summarized */
  compactAtPercent?: number
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
