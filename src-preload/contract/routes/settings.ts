/** The routes of settings, providers, built-in tools, assistants and usage. */
import { z } from 'zod'
import type {
  BuiltinToolInfo,
  LocalServerStatus,
  ProviderStatus,
  ServerInfoView,
  SettingsView,
} from '../app-dto'
import type { PermissionPolicy } from '../dto'
import { assistantDraftSchema, type Assistant, type AssistantToolsPreview } from '../assistants'
import { limitsSchema, providerSchema, settingsSchema } from '../settings-schema'
import { USAGE_GROUPS, type BudgetStatus, type UsageReport } from '../usage'
import { id, text } from './fields'

/** a provider as saved: the stored shape, with an http(s) base URL and no unknown fields */
const providerInput = z.strictObject({
  ...providerSchema.shape,
  baseURL: z.url({ protocol: /^https?$/ }),
})

const limitsPatch = z.strictObject(limitsSchema.shape).partial()

const settingsFields = settingsSchema.shape

export const settingsInputs = {
  'settings.get': z.strictObject({}),
  'settings.update': z.strictObject({
    providers: z.array(providerInput).max(100).optional(),
    activeProviderId: settingsFields.activeProviderId.optional(),
    activeModel: settingsFields.activeModel.optional(),
    permissionPolicy: settingsFields.permissionPolicy.optional(),
    limits: limitsPatch.optional(),
    logRetentionDays: settingsFields.logRetentionDays.optional(),
    builtinTools: z.strictObject(settingsFields.builtinTools.shape).optional(),
    defaultWorkspace: settingsFields.defaultWorkspace.optional(),
    systemPrompt: settingsFields.systemPrompt.optional(),
    generateTitles: settingsFields.generateTitles.optional(),
    voice: z.strictObject(settingsFields.voice.shape).optional(),
    localModels: z.strictObject(settingsFields.localModels.shape).optional(),
    mcp: z.strictObject(settingsFields.mcp.shape).optional(),
    usage: z.strictObject(settingsFields.usage.shape).optional(),
    attachments: z.strictObject(settingsFields.attachments.shape).optional(),
    mcpRegistryUrl: settingsFields.mcpRegistryUrl.optional(),
    /** forget remembered "always allow" decisions */
    clearAlwaysAllow: z.boolean().optional(),
    /** forget one remembered "always allow" decision (matched by server, tool and fingerprint) */
    revokeAlwaysAllow: z
      .strictObject({ server: text(500), tool: text(500), fingerprint: text(500) })
      .optional(),
    /** set (a string) or remove (null) a provider's API key; it is never sent back */
    apiKeys: z.record(id, z.string().max(10_000).nullable()).optional(),
  }),
  'providers.test': z.strictObject({
    baseURL: z.url({ protocol: /^https?$/ }),
    apiKey: text(10_000).optional(),
    /** use the stored key of this provider when `apiKey` is not given */
    providerId: id.optional(),
  }),
  'providers.models': z.strictObject({ providerId: id.optional() }),
  'providers.detect': z.strictObject({}),
  'providers.info': z.strictObject({
    baseURL: z.url({ protocol: /^https?$/ }),
    /** the model to ask about (none: only the kind of server) */
    model: text(500).optional(),
    /** the provider's Ollama settings as typed, for the window it would get */
    ollamaNativeApi: z.boolean().optional(),
    /** ask the server again instead of using what it said in the last minutes */
    fresh: z.boolean().optional(),
    ollamaMaxContext: providerSchema.shape.ollamaMaxContext,
  }),
  'providers.status': z.strictObject({}),
  'tools.builtins': z.strictObject({}),
  'assistants.list': z.strictObject({}),
  'assistants.get': z.strictObject({ id }),
  'assistants.create': z.strictObject({ assistant: assistantDraftSchema }),
  /** replaces everything the user sets (a field left out is unset: the settings' value) */
  'assistants.update': z.strictObject({ id, assistant: assistantDraftSchema }),
  /** a copy named `name`, else "<name> (copy)" (numbered when that is taken) */
  'assistants.duplicate': z.strictObject({
    id,
    name: z.string().trim().min(1).max(100).optional(),
  }),
  /** the default assistant cannot be deleted (`conflict`); sessions keep what they used */
  'assistants.delete': z.strictObject({ id }),
  /** the assistant as a JSON file (no id, no dates, no secrets) */
  'assistants.export': z.strictObject({ id }),
  /**
   * a file from `assistants.export`; a name already taken gets " (2)", " (3)", …; a permission
   * policy looser than the settings' is applied only with `allowPolicy` (the user agreed)
   */
  'assistants.import': z.strictObject({
    text: z.string().min(1).max(1_000_000),
    allowPolicy: z.boolean().optional(),
  }),
  /** the tools the model would be offered with this draft, from the servers connected now */
  'assistants.previewTools': z.strictObject({ assistant: assistantDraftSchema }),
  /** the stored usage of a period (epoch ms, `until` exclusive), grouped, with its cost */
  'usage.report': z.strictObject({
    since: z.number().int().min(0).nullable().optional(),
    until: z.number().int().min(0).nullable().optional(),
    by: z.enum(USAGE_GROUPS),
  }),
  /** this month's spending against the monthly budget (Settings › Usage) */
  'usage.budget': z.strictObject({}),
} satisfies Record<keyof SettingsOutputs, z.ZodType>

/** What each route answers. */
export interface SettingsOutputs {
  'settings.get': SettingsView
  'settings.update': SettingsView
  'providers.test': { models: string[] }
  /**
   * The models a provider serves. Without `providerId`: the provider a new chat would use
   * (the environment, then the settings, then a local server found running), and the
   * model it would take (null: none is configured).
   */
  'providers.models': { models: string[]; defaultModel: string | null }
  /** the built-in tools (switched on or off in settings) and the workspace they use by default */
  'tools.builtins': { tools: BuiltinToolInfo[]; defaultWorkspace: string }
  /** every assistant, by name; `defaultId`: the one a new chat starts with */
  'assistants.list': { assistants: Assistant[]; defaultId: string }
  'assistants.get': Assistant
  'assistants.create': Assistant
  'assistants.update': Assistant
  'assistants.duplicate': Assistant
  'assistants.delete': { deleted: boolean }
  'assistants.export': { filename: string; mimeType: string; content: string }
  /**
   * `renamedFrom`: the file's name, when it was taken and the import got another;
   * `policyNotApplied`: the file's permission policy, when it is looser than the settings' and
   * was not applied (the assistant follows the settings' policy)
   */
  'assistants.import': {
    assistant: Assistant
    renamedFrom: string | null
    policyNotApplied: PermissionPolicy | null
  }
  'assistants.previewTools': AssistantToolsPreview
  /** every local server candidate (the usual ones or CAIRN_LOCAL_SERVERS), probed at once */
  'providers.detect': { servers: LocalServerStatus[] }
  /** what kind of server a base URL is, and what it says about one model */
  'providers.info': ServerInfoView
  /** whether a provider is configured (settings or the environment): false on a first run */
  'providers.status': ProviderStatus
  'usage.report': UsageReport
  'usage.budget': BudgetStatus
}
