/**
 * How a session's assistant shapes its turns: which assistant a turn runs with, switching
 * a session to another one (from its next turn on), and what of the turn's setup the
 * assistant decides over the settings. Explicit choices of a run (`--model`, `--approve`,
 * `--workspace`, a provider given by flag) still come first.
 */
import type { Assistant } from '../../../src-preload/contract/assistants'
import type { PermissionPolicy, SessionRecord } from '../../../src-preload/contract/dto'
import type { SettingsData } from '../../../src-preload/contract/settings-schema'
import type { TurnLimits } from '../../core/agent/limits'
import type { AppServices } from '../host/app-services'

/**
 * Switches a session to `assistant`: it is recorded (with a copy) and, when the assistant
 * names a model or a workspace folder, the session takes them. A turn already running keeps
 * what it started with.
 */
export function switchSessionAssistant(
  app: AppServices,
  sessionId: string,
  assistant: Assistant,
): SessionRecord {
  app.assistants.setForSession(sessionId, assistant)
  return app.store.updateSession(sessionId, {
    ...(assistant.model ? { model: assistant.model } : {}),
    ...(assistant.workspace ? { workspace: assistant.workspace } : {}),
  })
}

/**
 * The assistant of a turn: the one asked for (a new chat starts with it; an existing
 * session switches to it), else the session's own (its copy when it was deleted), else the
 * default one.
 */
export function turnAssistant(
  app: AppServices,
  existing: SessionRecord | null,
  assistantId: string | undefined,
): { assistant: Assistant; session: SessionRecord | null } {
  if (assistantId !== undefined) {
    const assistant = app.assistants.require(assistantId)
    if (!existing) return { assistant, session: null }
    const current = app.assistants.forSession(existing.id).assistant
    const session =
      current.id === assistant.id ? existing : switchSessionAssistant(app, existing.id, assistant)
    return { assistant, session }
  }
  if (!existing) return { assistant: app.assistants.defaultAssistant(), session: null }
  return { assistant: app.assistants.forSession(existing.id).assistant, session: existing }
}

/** the limits of a turn: the defaults, the settings', the assistant's, the run's */
export function assistantLimits(
  base: TurnLimits,
  assistant: Assistant,
  run: Partial<TurnLimits> | undefined,
): TurnLimits {
  const own: Partial<TurnLimits> = {}
  if (assistant.limits.maxIterations !== undefined)
    own.maxIterations = assistant.limits.maxIterations
  if (assistant.limits.deadlineMs !== undefined) own.deadlineMs = assistant.limits.deadlineMs
  return { ...base, ...own, ...run }
}

export function assistantPolicy(
  assistant: Assistant,
  settings: SettingsData,
  run: PermissionPolicy | undefined,
): PermissionPolicy {
  return run ?? assistant.permissionPolicy ?? settings.permissionPolicy
}

/** the system prompt: the session's own, else the assistant's ('' is none), else the settings' */
export function assistantSystemPrompt(
  session: SessionRecord,
  assistant: Assistant,
  settings: SettingsData,
): string | null {
  if (session.systemPrompt !== null) return session.systemPrompt
  if (assistant.systemPrompt !== undefined) return assistant.systemPrompt || null
  return settings.systemPrompt
}

/**
 * The settings' provider the assistant names, when it exists and no provider was given by
 * flag: it replaces the active provider (and the environment's base URL) for this turn.
 */
export function assistantProvider(
  assistant: Assistant,
  settings: SettingsData,
): SettingsData['providers'][number] | null {
  if (!assistant.providerId) return null
  return settings.providers.find((p) => p.id === assistant.providerId) ?? null
}

/**
 * Where a turn's provider is looked for: the assistant's provider (unless a flag gives a
 * base URL) in place of the active one, with its own default model (the settings' model
 * is the active provider's), and the environment without its endpoint then.
 */
export function providerSources(
  assistant: Assistant,
  settings: SettingsData,
  env: NodeJS.ProcessEnv,
  flagBaseUrl: boolean,
): {
  active: SettingsData['providers'][number] | null
  activeModel: string | null
  env: NodeJS.ProcessEnv
} {
  const own = flagBaseUrl ? null : assistantProvider(assistant, settings)
  if (!own) {
    const active = settings.providers.find((p) => p.id === settings.activeProviderId) ?? null
    return { active, activeModel: settings.activeModel, env }
  }
  return { active: own, activeModel: null, env: withoutEnvEndpoint(env) }
}

/**
 * The environment without its endpoint: a base URL there, with the key that goes with it,
 * is not for the assistant's provider (which uses its own stored key).
 */
function withoutEnvEndpoint(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  if (!env['CAIRN_BASE_URL'] && !env['OPENAI_BASE_URL']) return env
  const {
    CAIRN_BASE_URL: _cb,
    OPENAI_BASE_URL: _ob,
    CAIRN_API_KEY: _ck,
    OPENAI_API_KEY: _ok,
    ...rest
  } = env
  return rest
}
