/**
 * The settings: their TypeScript type, their JSON schema (the `schema` option of conf /
 * electron-store: one JSON schema per top-level key) and their defaults. The type and
 * the schema are kept in step by `Record<keyof …>` annotations (a key missing on either
 * side does not compile) and by tests that validate the defaults against the schema.
 */
import type { PermissionPolicy } from '../../../src-preload/contract/dto'
import { DEFAULT_LIMITS, type TurnLimits } from '../../core/agent/limits'

export interface ProviderConfig {
  id: string
  name: string
  baseURL: string
  defaultModel?: string
  headers?: Record<string, string>
  /** the provider's models accept images: images from tools are passed to them as images */
  imageInput?: boolean
  /** an Ollama server is spoken to through its native API (default true), else its /v1 */
  ollamaNativeApi?: boolean
  /** the largest context window (num_ctx) asked of Ollama (default 32 768) */
  ollamaMaxContext?: number
  /** how long Ollama keeps the model loaded after a request (`5m`, `1h`, `-1`: always) */
  keepAlive?: string
  /** the user wants the model to think, where its thinking can be switched; unset: the server's default */
  thinking?: boolean
}

/** A remembered "always allow": valid while the tool's fingerprint is unchanged. */
export interface AlwaysAllowRule {
  server: string
  tool: string
  fingerprint: string
  createdAt: number
}

/** The turn limits kept in settings: all of the loop's limits but the backoff base. */
export type SettingsLimits = Omit<TurnLimits, 'retryBaseDelayMs'>

export interface WindowBounds {
  x?: number
  y?: number
  width?: number
  height?: number
}

export interface Settings {
  /** OpenAI-compatible endpoints; their API keys live in secrets.json */
  providers: ProviderConfig[]
  activeProviderId: string | null
  activeModel: string | null
  permissionPolicy: PermissionPolicy
  alwaysAllow: AlwaysAllowRule[]
  limits: SettingsLimits
  logRetentionDays: number
  /** MCP servers, Claude Desktop format (`{ command, args, env }` or `{ url }`) */
  mcpServers: Record<string, Record<string, unknown>>
  builtinTools: { disabled: string[] }
  /**
   * What the built-in tools may reach beyond the defaults: environment variable names
   * run_command passes on (besides PATH, HOME, …), and local or private hosts fetch_url
   * may fetch from (`host`, `host:port`, `*`).
   */
  toolAccess: { commandEnv: string[]; fetchAllowedHosts: string[] }
  defaultWorkspace: string | null
  systemPrompt: string | null
  /** the desktop window's last bounds */
  window: WindowBounds | null
}

export type SettingsKey = keyof Settings

/** A JSON schema (draft 2020-12), as plain data. */
export type JsonSchema = { [keyword: string]: unknown }

/** Ollama's `keep_alive`: seconds, or a duration such as `30s`, `5m`, `1h`; negative: always */
export const KEEP_ALIVE_PATTERN = '^-?[0-9]+(ms|s|m|h)?$'

const nullableString: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'null' }] }
const int = (minimum: number): JsonSchema => ({ type: 'integer', minimum })

const PERMISSION_POLICIES = [
  'ask',
  'allow-all',
  'deny-all',
  'read-only',
] as const satisfies readonly PermissionPolicy[]

export const LIMITS_SCHEMA: Record<keyof SettingsLimits, JsonSchema> = {
  maxIterations: int(1),
  maxToolExecutions: int(0),
  deadlineMs: int(1_000),
  maxToolOutputChars: int(100),
  loopThreshold: int(2),
  loopMaxWarnings: int(0),
  stopOnToolFailure: { type: 'boolean' },
  stopOnDenied: { type: 'boolean' },
  maxRetries: { type: 'integer', minimum: 0, maximum: 20 },
  idleTimeoutMs: int(1_000),
  contextTokens: int(0),
  maxAnswerChars: int(1_000),
  maxToolsPerServer: { type: 'integer', minimum: 1, maximum: 10_000 },
  keepToolResultsTurns: { type: 'integer', minimum: 1, maximum: 1000 },
  neverCompressTools: { type: 'array', items: { type: 'string' }, maxItems: 500 },
  compactAtPercent: { type: 'integer', minimum: 10, maximum: 95 },
}

/** The `schema` option of conf / electron-store: top-level key → JSON schema. */
export const SETTINGS_SCHEMA: Record<SettingsKey, JsonSchema> = {
  providers: {
    type: 'array',
    items: {
      type: 'object',
      required: ['id', 'name', 'baseURL'],
      properties: {
        id: { type: 'string', minLength: 1 },
        name: { type: 'string' },
        baseURL: { type: 'string', minLength: 1 },
        defaultModel: { type: 'string' },
        headers: { type: 'object', additionalProperties: { type: 'string' } },
        imageInput: { type: 'boolean' },
        ollamaNativeApi: { type: 'boolean' },
        ollamaMaxContext: { type: 'integer', minimum: 256, maximum: 10_000_000 },
        keepAlive: { type: 'string', pattern: KEEP_ALIVE_PATTERN },
        thinking: { type: 'boolean' },
      },
    },
  },
  activeProviderId: nullableString,
  activeModel: nullableString,
  permissionPolicy: { enum: [...PERMISSION_POLICIES] },
  alwaysAllow: {
    type: 'array',
    items: {
      type: 'object',
      required: ['server', 'tool', 'fingerprint', 'createdAt'],
      properties: {
        server: { type: 'string' },
        tool: { type: 'string' },
        fingerprint: { type: 'string' },
        createdAt: { type: 'number' },
      },
    },
  },
  limits: {
    type: 'object',
    required: Object.keys(LIMITS_SCHEMA),
    properties: LIMITS_SCHEMA,
  },
  logRetentionDays: int(1),
  mcpServers: { type: 'object', additionalProperties: { type: 'object' } },
  builtinTools: {
    type: 'object',
    required: ['disabled'],
    properties: { disabled: { type: 'array', items: { type: 'string' } } },
  },
  toolAccess: {
    type: 'object',
    required: ['commandEnv', 'fetchAllowedHosts'],
    properties: {
      commandEnv: { type: 'array', items: { type: 'string', pattern: '^[A-Za-z_][A-Za-z0-9_]*$' } },
      fetchAllowedHosts: { type: 'array', items: { type: 'string', minLength: 1 } },
    },
  },
  defaultWorkspace: nullableString,
  systemPrompt: nullableString,
  window: {
    anyOf: [
      { type: 'null' },
      {
        type: 'object',
        properties: {
          x: { type: 'number' },
          y: { type: 'number' },
          width: { type: 'number', minimum: 0 },
          height: { type: 'number', minimum: 0 },
        },
      },
    ],
  },
}

/**
 * The whole file: every known key is required; unknown keys are allowed (and kept), so
 * that a newer version's settings survive an older one.
 */
export const SETTINGS_ROOT_SCHEMA: JsonSchema = {
  type: 'object',
  required: Object.keys(SETTINGS_SCHEMA),
  properties: SETTINGS_SCHEMA,
}

const { retryBaseDelayMs: _backoffBase, ...settingsLimitDefaults } = DEFAULT_LIMITS
export const DEFAULT_SETTINGS_LIMITS: Readonly<SettingsLimits> =
  Object.freeze(settingsLimitDefaults)

const DEFAULTS: Readonly<Settings> = Object.freeze({
  providers: [],
  activeProviderId: null,
  activeModel: null,
  permissionPolicy: 'ask',
  alwaysAllow: [],
  limits: DEFAULT_SETTINGS_LIMITS,
  logRetentionDays: 30,
  mcpServers: {},
  builtinTools: { disabled: [] },
  toolAccess: { commandEnv: [], fetchAllowedHosts: [] },
  defaultWorkspace: null,
  systemPrompt: null,
  window: null,
})

/** A fresh copy of the defaults (safe to mutate). */
export function defaultSettings(): Settings {
  return structuredClone(DEFAULTS)
}
