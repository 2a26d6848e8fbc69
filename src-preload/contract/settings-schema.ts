/**
 * The settings, defined once: the shape of `settings.json` (validated by the main process
 * after every read and before every write), the `settings.update` input (built from the
 * same fields in `routes/settings.ts`) and the settings view (`app-dto.ts`) all come from here.
 * Stored objects are checked, not rewritten: unknown keys in the file are kept.
 */
import { z } from 'zod'
import { FINAL_UTTERANCE_MODES } from './voice'
import { usageSettingsSchema } from './usage'
import { desktopSettingsSchema } from './desktop'

const text = (max: number) => z.string().max(max)
const int = (min: number, max?: number) => {
  const n = z.number().int().min(min)
  return max === undefined ? n : n.max(max)
}

export const PERMISSION_POLICIES = ['ask', 'allow-all', 'deny-all', 'read-only'] as const
export type PermissionPolicy = (typeof PERMISSION_POLICIES)[number]
export const permissionPolicySchema = z.enum(PERMISSION_POLICIES)

/** Ollama's `keep_alive`: seconds, or a duration such as `30s`, `5m`, `1h`; negative: always */
export const keepAliveSchema = z
  .string()
  .regex(/^-?[0-9]+(ms|s|m|h)?$/, 'a number of seconds or a duration such as 30s, 5m, 1h')

export const headersSchema = z.record(z.string().max(200), z.string().max(10_000))

/** An OpenAI-compatible endpoint; its API key lives in secrets.json. */
export const providerSchema = z.object({
  id: z.string().min(1).max(200),
  name: text(200),
  /** checked as an http(s) URL when it is saved (`settings.update`) */
  baseURL: z.string().min(1).max(4096),
  defaultModel: text(500).optional(),
  /** the model that writes summaries of long conversations; unset: the session's own model */
  utilityModel: text(500).optional(),
  headers: headersSchema.optional(),
  /** the provider's models accept images: images from tools are passed to them as images */
  imageInput: z.boolean().optional(),
  /** an Ollama server is spoken to through its native API (default true), else its /v1 */
  ollamaNativeApi: z.boolean().optional(),
  /** the largest context window (num_ctx) asked of Ollama (default 32 768) */
  ollamaMaxContext: int(256, 10_000_000).optional(),
  /** how long Ollama keeps the model loaded after a request (`5m`, `1h`, `-1`: always) */
  keepAlive: keepAliveSchema.optional(),
  /** the user wants the model to think, where its thinking can be switched; unset: the server's default */
  thinking: z.boolean().optional(),
  /** context windows the user sets per model (tokens), over what the server or the table says */
  contextWindows: z.record(z.string().min(1).max(500), int(256, 10_000_000)).optional(),
})

/** The limits of one turn (the agent loop's, from settings). */
export const limitsSchema = z.object({
  /** LLM calls per turn */
  maxIterations: int(1),
  /** tool executions per turn */
  maxToolExecutions: int(0),
  /** wall-clock budget of the whole turn */
  deadlineMs: int(1_000),
  /** tool output above this is cut, with a marker the model can read */
  maxToolOutputChars: int(100),
  /** the same call (tool + canonical arguments) this many times in a row is a loop */
  loopThreshold: int(2),
  /** warnings given before a loop stops the turn */
  loopMaxWarnings: int(0),
  stopOnToolFailure: z.boolean(),
  stopOnDenied: z.boolean(),
  /** LLM retries after the first attempt */
  maxRetries: int(0, 20),
  /** the stream watchdog */
  idleTimeoutMs: int(1_000),
  /** estimated tokens a request may use; older tool output is shortened, then old turns left out (0: off) */
  contextTokens: int(0),
  /** characters of one answer (text and reasoning): past it the stream is cut and the turn ends */
  maxAnswerChars: int(1_000),
  /** tools of one MCP server given to the model; a server that offers more is warned about */
  maxToolsPerServer: int(1, 10_000),
  /** turns at the end whose tool results are sent whole; older ones are cut to 200 characters */
  keepToolResultsTurns: int(1, 1000),
  /** tools whose results are never cut (an authentication tool, say) */
  neverCompressTools: z.array(text(200)).max(500),
  /** percent of the context window past which the middle of the conversation is summarized */
  compactAtPercent: int(10, 95),
  /** tools one request carries at most (never more than 128); past it the model searches them with find_tools */
  maxToolsOffered: int(2, 1000),
})

/** A remembered "always allow": valid while the tool's fingerprint is unchanged. */
export const alwaysAllowRuleSchema = z.object({
  server: z.string(),
  tool: z.string(),
  fingerprint: z.string(),
  createdAt: z.number(),
})

export const windowBoundsSchema = z.object({
  x: z.number().optional(),
  y: z.number().optional(),
  width: z.number().min(0).optional(),
  height: z.number().min(0).optional(),
})

/** Voice input (see the README's "Voice input"). */
export const voiceSettingsSchema = z.object({
  /** the MCP server to listen with when several offer the voice tools; null: the only one */
  server: text(200).nullable(),
  /** a final utterance is sent as the user's message, or left in the composer to edit */
  finalUtterance: z.enum(FINAL_UTTERANCE_MODES),
})

/** Cairn's own runtime for local GGUF models (see the README's "Local models"). */
export const localModelsSettingsSchema = z.object({
  /** a loaded model is unloaded after this many minutes without a request */
  idleMinutes: int(1, 1440),
  /** CPU threads for generation; 0: half the machine's cores */
  threads: int(0, 256),
  /** the largest context window given to a model (tokens); less when memory is short */
  maxContext: int(512, 1_048_576),
  /** the Hugging Face hub searched and downloaded from (another address: a mirror) */
  hubURL: z.url({ protocol: /^https?$/ }).max(2048),
})

/** MCP beyond the servers themselves. */
export const mcpSettingsSchema = z.object({
  /**
   * the https address of an OAuth client ID metadata document, used as Cairn's client id
   * with an authorization server that supports those documents (by default, the one this
   * repository publishes: docs/oauth/client-metadata.json); null: Cairn registers itself
   * with each server instead. A server's own `oauth` entry overrides it.
   */
  clientMetadataUrl: z
    .url({ protocol: /^https$/ })
    .max(4096)
    .nullable(),
})

/** Files attached to messages (see the README's "Attachments"): the limits and the image size. */
export const attachmentSettingsSchema = z.object({
  /** the largest image file taken, in MB */
  maxImageMB: int(1, 200),
  /** the largest document taken, in MB */
  maxDocumentMB: int(1, 500),
  /** files one message may carry */
  maxFiles: int(1, 100),
  /** MB one message may carry in all: its files and the resources attached with `@` */
  maxMessageMB: int(1, 1000),
  /** an image's longest side, in pixels, as it is sent (larger ones are scaled down) */
  imageLongSide: int(256, 8192),
})

/**
 * The knowledge base (see the README's "Knowledge"): the largest file indexed, and the
 * embeddings endpoint that makes search hybrid (its key is kept in the secrets, as
 * `knowledge-embeddings`); null: BM25 alone.
 */
export const knowledgeSettingsSchema = z.object({
  /** files larger than this many MB are skipped, with why */
  maxFileMB: int(1, 2000),
  embeddings: z
    .object({
      /** any OpenAI-compatible API (its `/embeddings`): Ollama, LM Studio, llama.cpp, OpenAI */
      baseURL: z.url({ protocol: /^https?$/ }).max(2048),
      model: text(500).min(1),
    })
    .nullable(),
})

/** Every key of settings.json; each is required in the file (a missing one takes its default). */
export const settingsSchema = z.object({
  providers: z.array(providerSchema).max(100),
  activeProviderId: z.string().min(1).max(200).nullable(),
  activeModel: text(500).nullable(),
  permissionPolicy: permissionPolicySchema,
  alwaysAllow: z.array(alwaysAllowRuleSchema),
  limits: limitsSchema,
  logRetentionDays: int(1, 3650),
  /** MCP servers, Claude Desktop format (`{ command, args, env }` or `{ url }`), checked when loaded */
  mcpServers: z.record(z.string(), z.record(z.string(), z.unknown())),
  builtinTools: z.object({ disabled: z.array(text(100)).max(100) }),
  /**
   * What the built-in tools may reach beyond the defaults: environment variable names
   * run_command passes on (besides PATH, HOME, …), and local or private hosts fetch_url
   * may fetch from (`host`, `host:port`, `*`).
   */
  toolAccess: z.object({
    commandEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/)),
    fetchAllowedHosts: z.array(z.string().min(1)),
  }),
  defaultWorkspace: text(4096).nullable(),
  systemPrompt: text(100_000).nullable(),
  /** a new chat is named by the utility model from its first exchange (off: by its first message) */
  generateTitles: z.boolean(),
  /** the desktop window's last bounds */
  window: windowBoundsSchema.nullable(),
  /** the desktop app's Quick ask shortcut and tray (desktop.ts) */
  desktop: desktopSettingsSchema,
  voice: voiceSettingsSchema,
  localModels: localModelsSettingsSchema,
  mcp: mcpSettingsSchema,
  /** the monthly budget and the user's own prices (Settings › Usage) */
  usage: usageSettingsSchema,
  attachments: attachmentSettingsSchema,
  /** the MCP registry searched for servers to install (its v0.1 API; another address: a mirror or a private one) */
  mcpRegistryUrl: z.url({ protocol: /^https?$/ }).max(2048),
  knowledge: knowledgeSettingsSchema,
})

export type ProviderSettings = z.infer<typeof providerSchema>
export type LimitsSettings = z.infer<typeof limitsSchema>
export type SettingsData = z.infer<typeof settingsSchema>
export type AttachmentSettings = z.infer<typeof attachmentSettingsSchema>
export type KnowledgeSettings = z.infer<typeof knowledgeSettingsSchema>
