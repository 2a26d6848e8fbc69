/**
 * A turn's plan, made before anything is saved: the assistant it runs with, the provider
 * and the model that answer, then (once its session is known) the model's setup and the
 * turn's limits. What the user must fix first (no provider, no model, an unknown assistant
 * or session, a busy session) is a `SetupError`.
 */
import { isLocalKind, resolvePrice } from '../../core/llm/pricing'
import type { Assistant } from '../../../src-preload/contract/assistants'
import type { SessionRecord } from '../../../src-preload/contract/dto'
import type { SetupErrorCode } from '../../../src-preload/contract/errors'
import type { SettingsData } from '../../../src-preload/contract/settings-schema'
import type { ProjectSummary } from '../../../src-preload/contract/projects'
import { DEFAULT_LIMITS, type TurnLimits } from '../../core/agent/limits'
import type { TurnDeps } from '../../core/agent/turn-state'
import { ExpectedError } from '../../core/errors'
import { LlmClient } from '../../core/llm/client'
import {
  assistantLimits,
  assistantProvider,
  providerSources,
  turnAssistant,
} from '../assistants/assistant-setup'
import type { AppServices } from '../host/app-services'
import { projectAssistantId, turnProject } from '../projects/project-setup'
import { setupModel } from '../providers/model-setup'
import {
  LOCAL_PROVIDER_ID,
  LocalProviderError,
  localProviderChoice,
  providerKey,
} from '../providers/local-provider'
import {
  detectLocalServer,
  localServerCandidates,
  noProviderHelp,
  resolveProvider,
  type ProviderChoice,
  type ProviderFlags,
} from '../providers/provider'
import { rememberSessionWindow } from './session-windows'

/** A problem the user fixes in their configuration or command line; nothing was run. */
export class SetupError extends ExpectedError<SetupErrorCode> {
  constructor(message: string, code: SetupErrorCode) {
    super(code, message)
    this.name = 'SetupError'
  }
}

/** What of a run's input the plan reads. */
export interface PlanInput {
  flags: ProviderFlags
  env: NodeJS.ProcessEnv
  /** the assistant asked for; unset: the session's own (a new one: its project's, else the default) */
  assistantId?: string
  /** the project a new session starts in (an existing one stays in its own) */
  projectId?: string
}

export interface TurnPlan {
  settings: SettingsData
  assistant: Assistant
  /** the session as it is now (switched to the assistant asked for); null: a new session */
  existing: SessionRecord | null
  /** the session's project (a new one: the project asked for); null: none */
  project: ProjectSummary | null
  provider: ProviderChoice
  model: string
}

/**
 * Plans a turn in `found` (null: a new session): its assistant, then the provider (the
 * assistant's, else the flags', the environment's or the settings'), then the model (the
 * run's flag, the session's, the assistant's, the provider's, else the only one served).
 */
export async function planTurn(
  app: AppServices,
  input: PlanInput,
  found: SessionRecord | null,
): Promise<TurnPlan> {
  const settings = app.settings.get()
  const project = turnProject(app, found, input.projectId)
  const chosen = chooseAssistant(
    app,
    found,
    input.assistantId ?? (found ? undefined : projectAssistantId(app, project)),
  )
  const assistant = chosen.assistant
  // switched to another assistant: the session as it is now (its model, its workspace)
  const existing = chosen.session ?? found
  const provider = await chooseProvider(
    app,
    settings,
    assistant,
    input,
    (served) => input.flags.model ?? (input.env['CAIRN_MODEL'] || undefined) ?? served[0],
  )
  if (provider.apiKey) app.registerSecret(provider.apiKey)
  // A session keeps its model until the user switches it (--model or CAIRN_MODEL on a
  // new one); a new session takes its project's, else the configured one.
  const switchTo = input.flags.model
  const named =
    switchTo ??
    (existing?.model || undefined) ??
    (existing ? undefined : project?.model) ??
    assistant.model ??
    provider.model
  const model = named || (await onlyModel(provider))
  return { settings, assistant, existing, project, provider, model }
}

/** What the run sets over the plan's model and limits. */
export interface ModelInput {
  limits?: Partial<TurnLimits>
  /** the model's context window for this turn, over what the server says (`--context-window`) */
  contextWindow?: number
  /** switch the model's thinking for this turn, over the provider's setting (`--think`) */
  thinking?: boolean
  signal?: AbortSignal
}

/**
 * The model as the turn uses it, and the turn's limits: the window the request is fitted
 * into is the run's, the server's, a known model's or the settings' (remembered for the
 * session's `sessions.context`).
 */
export async function setupTurnModel(
  plan: TurnPlan,
  session: SessionRecord,
  input: ModelInput & Pick<PlanInput, 'flags'>,
): Promise<{ llm: TurnDeps['llm']; limits: TurnLimits }> {
  const { assistant, provider, model, settings } = plan
  const limits = assistantLimits({ ...DEFAULT_LIMITS, ...settings.limits }, assistant, input.limits)
  const setup = await setupModel(provider, model, {
    fallbackWindow: limits.contextTokens,
    ...(input.contextWindow !== undefined ? { override: input.contextWindow } : {}),
    ...(input.thinking !== undefined ? { thinking: input.thinking } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
  })
  if (limits.contextTokens > 0 || input.contextWindow !== undefined) {
    limits.contextTokens = setup.window.tokens
    rememberSessionWindow(session.id, setup.window)
  }
  const llm: TurnDeps['llm'] = {
    client: setup.client,
    baseURL: setup.requestURL,
    provider: providerKey(provider),
    model,
    ...(provider.utilityModel ? { utilityModel: provider.utilityModel } : {}),
    ...(assistant.utilityModel ? { utilityModel: assistant.utilityModel } : {}),
    ...setup.llm,
    price: resolvePrice({
      model,
      local: provider.local !== undefined || isLocalKind(setup.info?.kind),
      published: setup.info?.price ?? null,
      user: settings.usage.prices,
    }),
  }
  if (assistant.temperature !== undefined)
    llm.params = { ...llm.params, temperature: assistant.temperature }
  const lostProvider = missingProvider(assistant, settings, input.flags)
  if (lostProvider) llm.notices = [...(llm.notices ?? []), lostProvider]
  return { llm, limits }
}

/** what to say when the assistant names a provider the settings no longer have */
function missingProvider(
  assistant: Assistant,
  settings: SettingsData,
  flags: ProviderFlags,
): string | null {
  if (!assistant.providerId || flags.baseUrl || assistantProvider(assistant, settings)) return null
  return `The assistant "${assistant.name}" names the provider "${assistant.providerId}", which the settings do not have; the configured provider answers instead.`
}

/** the turn's assistant; an unknown id is a setup problem (nothing was run) */
function chooseAssistant(
  app: AppServices,
  existing: SessionRecord | null,
  assistantId: string | undefined,
): { assistant: Assistant; session: SessionRecord | null } {
  if (assistantId !== undefined && !app.assistants.get(assistantId))
    throw new SetupError(`There is no assistant "${assistantId}".`, 'no_assistant')
  return turnAssistant(app, existing, assistantId)
}

/**
 * The provider a turn (or compaction) uses: the assistant's, else what the flags, the
 * environment and the settings name, else the first local server found running, with the
 * model `localModel` picks from those it serves.
 */
export async function chooseProvider(
  app: AppServices,
  settings: SettingsData,
  assistant: Assistant,
  { flags, env }: Pick<PlanInput, 'flags' | 'env'>,
  localModel: (served: string[]) => string | undefined,
): Promise<ProviderChoice> {
  const named = flags.baseUrl ? undefined : (flags.provider ?? assistant.providerId)
  if (named === LOCAL_PROVIDER_ID)
    return local(app, flags.model ?? assistant.model, flags.provider ? 'flag' : 'settings')
  if (flags.provider && !settings.providers.some((p) => p.id === flags.provider)) {
    const ids = [LOCAL_PROVIDER_ID, ...settings.providers.map((p) => p.id)].join(', ')
    throw new SetupError(
      `There is no provider "${flags.provider}". The providers are: ${ids}.`,
      'no_provider',
    )
  }
  const chosen = flags.provider ? { ...assistant, providerId: flags.provider } : assistant
  // the assistant's provider comes before the environment's and the active one, not a flag's
  const sources = providerSources(chosen, settings, env, !!flags.baseUrl)
  const resolved = resolveProvider({
    flags,
    ...sources,
    storedKey: (id) => app.secrets.getApiKey(id),
  })
  if (resolved) return resolved
  // the active provider is `local`, or none is configured and a local model exists
  if (settings.activeProviderId === LOCAL_PROVIDER_ID || app.models.list().length > 0) {
    const activeModel =
      settings.activeProviderId === LOCAL_PROVIDER_ID
        ? (settings.activeModel ?? undefined)
        : undefined
    return local(app, flags.model ?? (env['CAIRN_MODEL'] || undefined) ?? activeModel, 'settings')
  }
  const candidates = localServerCandidates(env)
  const found = await detectLocalServer(candidates)
  if (!found) throw new SetupError(noProviderHelp(candidates), 'no_provider')
  const model = localModel(found.models)
  return {
    baseURL: found.baseURL,
    source: 'settings',
    label: found.name,
    ...(model ? { model } : {}),
  }
}

/** The built-in `local` provider, its runtime started; what is missing is a setup problem. */
async function local(
  app: AppServices,
  model: string | undefined,
  source: ProviderChoice['source'],
): Promise<ProviderChoice> {
  try {
    return await localProviderChoice(app.models, app.localRuntime, { model, source })
  } catch (e) {
    if (e instanceof LocalProviderError && e.code === 'no_model')
      throw new SetupError(e.message, 'no_model')
    throw e
  }
}

/** With no model configured, an endpoint that serves exactly one model gets that one. */
async function onlyModel(provider: ProviderChoice): Promise<string> {
  const client = new LlmClient(
    {
      baseURL: provider.baseURL,
      ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
      ...(provider.headers ? { headers: provider.headers } : {}),
    },
    { fetch },
  )
  let models: string[] = []
  try {
    models = await client.listModels(AbortSignal.timeout(10_000))
  } catch (e) {
    throw new SetupError(
      `No model is configured and ${provider.baseURL} did not list its models (${(e as Error).message}). ` +
        'Pass --model <name> or set CAIRN_MODEL.',
      'no_model',
    )
  }
  if (models.length === 1 && models[0]) return models[0]
  throw new SetupError(
    `No model is configured. Pass --model <name> or set CAIRN_MODEL.` +
      (models.length > 0 ? ` ${provider.baseURL} serves: ${models.slice(0, 20).join(', ')}.` : ''),
    'no_model',
  )
}
