/**
 * The settings: their types (inferred from the zod schema in the contract, the one
 * definition of their shape and bounds) and their defaults. Tests check that the defaults
 * pass the schema and that both list the same keys.
 */
import type { z } from 'zod'
import {
  settingsSchema,
  type LimitsSettings,
  type ProviderSettings,
  type SettingsData,
} from '../../../src-preload/contract/settings-schema'
import { DEFAULT_LIMITS } from '../../core/agent/limits'
import { CAIRN_CLIENT_METADATA_URL } from '../../core/mcp-ports'
import { DEFAULT_ATTACHMENT_SETTINGS } from '../../core/attachments/limits'
import { DEFAULT_DESKTOP_SETTINGS } from '../../../src-preload/contract/desktop'

export { settingsSchema }

export type ProviderConfig = ProviderSettings

/** A remembered "always allow": valid while the tool's fingerprint is unchanged. */
export type AlwaysAllowRule = SettingsData['alwaysAllow'][number]

/** The turn limits kept in settings: all of the loop's limits but the backoff base. */
export type SettingsLimits = LimitsSettings

export type WindowBounds = NonNullable<SettingsData['window']>

export type Settings = SettingsData

export type SettingsKey = keyof Settings

/** The schema of each top-level key. */
export const SETTINGS_FIELDS: { readonly [K in SettingsKey]: z.ZodType } = settingsSchema.shape

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
  generateTitles: false,
  window: null,
  voice: { server: null, finalUtterance: 'send' as const },
  localModels: {
    idleMinutes: 10,
    threads: 0,
    maxContext: 8192,
    hubURL: 'https://huggingface.co',
  },
  mcp: { clientMetadataUrl: CAIRN_CLIENT_METADATA_URL },
  usage: { monthlyBudget: null, prices: {} },
  desktop: DEFAULT_DESKTOP_SETTINGS,
  attachments: DEFAULT_ATTACHMENT_SETTINGS,
  mcpRegistryUrl: 'https://registry.modelcontextprotocol.io',
  knowledge: { maxFileMB: 50, embeddings: null },
})

/** A fresh copy of the defaults (safe to mutate). */
export function defaultSettings(): Settings {
  return structuredClone(DEFAULTS)
}
