import { randomUUID } from 'node:crypto'
import os from 'node:os'
import type {
  ContentPart,
  PermissionPolicy,
  SessionRecord,
} from '../../../src-preload/contract/dto'
import type { AgentEvent } from '../../../src-preload/contract/events'
import type { SetupErrorCode } from '../../../src-preload/contract/errors'
import type { SettingsData } from '../../../src-preload/contract/settings-schema'
import { DEFAULT_LIMITS, type TurnLimits } from '../../core/agent/limits'
import { modelForTier, type TierModel } from '../../core/agent/model-tiers'
import { writeTitle } from '../../core/agent/session-title'
import { runTurn, type TurnOutcome } from '../../core/agent/turn-runner'
import { systemClock } from '../../core/clock'
import { ExpectedError } from '../../core/errors'
import { LlmClient } from '../../core/llm/client'
import type { Approver, Elicitor, ToolHost } from '../../core/ports'
import type { SessionLease } from '../../core/service-ports'
import type { AppServices } from '../host/app-services'
import {
  detectLocalServer,
  localServerCandidates,
  noProviderHelp,
  resolveProvider,
  type ProviderChoice,
  type ProviderFlags,
} from '../providers/provider'
import { setupModel } from '../providers/model-setup'
import {
  assistantLimits,
  assistantPolicy,
  assistantProvider,
  providerSources,
  assistantSystemPrompt,
  turnAssistant,
} from '../assistants/assistant-setup'
import { AssistantToolHost } from '../../core/tools/assistant-filter'
import type { Assistant } from '../../../src-preload/contract/assistants'
import { rememberSessionWindow } from './session-windows'

/** A problem the user fixes in their configuration or command line; nothing was run. */
export class SetupError extends ExpectedError<SetupErrorCode> {
  constructor(message: string, code: SetupErrorCode) {
    super(code, message)
    this.name = 'SetupError'
  }
}

export interface TurnInput {
  sessionId?: string
  text: string
  /** resources attached to the message, already read (stored with it) */
  parts?: ContentPart[]
  /** the seq of the user message this one replaces (see `TurnRequest.supersedes`) */
  supersedes?: number
  flags: ProviderFlags
  env: NodeJS.ProcessEnv
  policy?: PermissionPolicy
  limits?: Partial<TurnLimits>
  /** the workspace folder for the built-in file tools (a session keeps its own until switched) */
  workspace?: string
  /**
   * The assistant's id: a new session starts with it, an existing one switches to it from
   * this turn on. Unset: the session's own assistant (a new one: the default assistant).
   */
  assistantId?: string
  /** the model's context window for this turn, over what the server says (`--context-window`) */
  contextWindow?: number
  /** switch the model's thinking for this turn, over the provider's setting (`--think`) */
  thinking?: boolean
  tools: (session: SessionRecord) => ToolHost
  approver: Approver
  /** asks the user what a server wants to know during a tool call; none: declined */
  elicitor?: Elicitor
  emit: (event: AgentEvent) => void
  signal?: AbortSignal
  /** who runs the turn, for the "busy in another window" message (default 'cli') */
  owner?: string
  /** called once the session and turn are known, before the first event */
  onStart?: (info: {
    session: SessionRecord
    turnId: string
    provider: ProviderChoice
    model: string
  }) => void
}

export interface TurnRun {
  sessionId: string
  turnId: string
  outcome: TurnOutcome
  /** the session was new and its first turn failed before any answer: it was not kept */
  discarded: boolean
  /** a new session being named by the utility model (settings: generated titles); true: renamed */
  titled?: Promise<boolean>
}

/** how long a title may take before the chat keeps its first message as its title */
const TITLE_TIMEOUT_MS = 20_000

/** Takes the session's lease (synchronously), or says who has it. */
function leaseSession(app: AppServices, sessionId: string, owner: string): SessionLease {
  const got = app.store.leases.acquire(sessionId, owner)
  if (!got.ok) throw new SetupError(got.busy, 'busy')
  return got.lease
}

/**
 * Picks the provider and the model, opens or creates the session, and runs one turn. An
 * existing session's lease is taken before the first `await` (so the caller's synchronous
 * part decides who runs it) and held until the turn has ended.
 */
export async function runSessionTurn(app: AppServices, input: TurnInput): Promise<TurnRun> {
  const owner = input.owner ?? 'cli'
  const existing = input.sessionId ? app.store.getSession(input.sessionId) : null
  if (input.sessionId && !existing) {
    throw new SetupError(
      `There is no session "${input.sessionId}". \`cairn sessions list\` shows the sessions.`,
      'no_session',
    )
  }
  let lease: SessionLease | null = existing ? leaseSession(app, existing.id, owner) : null
  try {
    // a turn that has ended no longer holds its session, even before this promise settles
    const emit = (e: AgentEvent): void => {
      if (e.type === 'turn_end') lease?.release()
      input.emit(e)
    }
    return await runLeased(
      app,
      { ...input, emit },
      existing,
      (id) => (lease = leaseSession(app, id, owner)),
    )
  } finally {
    lease?.release()
  }
}

async function runLeased(
  app: AppServices,
  input: TurnInput,
  found: SessionRecord | null,
  leaseNew: (sessionId: string) => void,
): Promise<TurnRun> {
  const settings = app.settings.get()
  const chosen = chooseAssistant(app, found, input.assistantId)
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
  const client = new LlmClient({
    baseURL: provider.baseURL,
    ...(provider.apiKey ? { apiKey: provider.apiKey } : {}),
    ...(provider.headers ? { headers: provider.headers } : {}),
  })
  // A session keeps its model until the user switches it (--model or CAIRN_MODEL on a
  // new one); a new session takes the configured one.
  const switchTo = input.flags.model
  let model = switchTo ?? (existing?.model || undefined) ?? assistant.model ?? provider.model
  if (!model) model = await onlyModel(client, provider)

  let session: SessionRecord
  if (existing) {
    session = existing
    const workspace = input.workspace ?? existing.workspace
    if (
      existing.model !== model ||
      existing.provider !== provider.baseURL ||
      existing.workspace !== workspace
    ) {
      session = app.store.updateSession(existing.id, {
        model,
        provider: provider.baseURL,
        workspace,
      })
    }
  } else {
    session = app.store.createSession({
      provider: provider.baseURL,
      model,
      workspace: input.workspace ?? assistant.workspace ?? settings.defaultWorkspace ?? null,
    })
    leaseNew(session.id)
  }
  // the session records the assistant this turn runs with, and keeps a copy of it
  app.assistants.setForSession(session.id, assistant)
  const turnId = randomUUID()
  // a new session is kept only once its first request got an answer: a first turn that
  // fails before one (the server cannot be reached, the key is rejected) leaves no session
  let discarded = false
  const emit = existing
    ? input.emit
    : (e: AgentEvent): void => {
        if (e.type === 'turn_end' && e.reason === 'error' && !answered(app, session.id)) {
          discarded = app.store.deleteSession(session.id)
          if (discarded) {
            input.emit({ ...e, discardedSession: { text: input.text } })
            return
          }
        }
        input.emit(e)
      }
  input.onStart?.({ session, turnId, provider, model })
  const limits: TurnLimits = assistantLimits(
    { ...DEFAULT_LIMITS, ...settings.limits },
    assistant,
    input.limits,
  )
  // the window the request is fitted into: the run's, the server's, a known model's, the settings'
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
  const llm = {
    client: setup.client,
    baseURL: setup.requestURL,
    provider: provider.baseURL,
    model,
    ...(provider.utilityModel ? { utilityModel: provider.utilityModel } : {}),
    ...(assistant.utilityModel ? { utilityModel: assistant.utilityModel } : {}),
    ...setup.llm,
  }
  if (assistant.temperature !== undefined)
    llm.params = { ...llm.params, temperature: assistant.temperature }
  const lostProvider = missingProvider(assistant, settings, input.flags)
  if (lostProvider) llm.notices = [...(llm.notices ?? []), lostProvider]
  const outcome = await runTurn(
    {
      store: app.store,
      // what the assistant does not allow is not offered, and unknown if called
      tools: new AssistantToolHost(input.tools(session), assistant.tools),
      approver: input.approver,
      ...(input.elicitor ? { elicitor: input.elicitor } : {}),
      rules: app.rules,
      clock: systemClock,
      logger: app.logger,
      ...(app.calibration ? { calibration: app.calibration } : {}),
      llm,
    },
    {
      sessionId: session.id,
      turnId,
      text: input.text,
      ...(input.parts ? { parts: input.parts } : {}),
      ...(input.supersedes !== undefined ? { supersedes: input.supersedes } : {}),
      policy: assistantPolicy(assistant, settings, input.policy),
      limits,
      systemPrompt: assistantSystemPrompt(session, assistant, settings),
      environment: {
        os: describeOs(),
        workspace: session.workspace ?? settings.defaultWorkspace ?? app.defaultWorkspace(),
      },
      ...(input.signal ? { signal: input.signal } : {}),
      emit,
    },
  )
  if (discarded) await app.turnLogs.deleteSession(session.id).catch(() => undefined)
  // named by the utility model, after the turn (it holds nothing up), when the user wants it
  const titled =
    !existing && !discarded && outcome.reason === 'completed' && settings.generateTitles
      ? nameSession(app, session.id, modelForTier(llm, 'utility'))
      : undefined
  return { sessionId: session.id, turnId, outcome, discarded, ...(titled ? { titled } : {}) }
}

/**
 * Names a new session from its first exchange; keeps the title it has when the call fails,
 * or when the user renamed it meanwhile. Resolves true when the title changed.
 */
async function nameSession(
  app: AppServices,
  sessionId: string,
  model: TierModel,
): Promise<boolean> {
  try {
    const before = app.store.getSession(sessionId)
    const messages = app.store.listMessages(sessionId)
    const question = messages.find((m) => m.role === 'user' && m.kind === 'message')?.content
    const answer = messages.findLast((m) => m.role === 'assistant' && m.content)?.content
    if (!before || !question || !answer) return false
    const title = await writeTitle({
      model,
      question,
      answer,
      signal: AbortSignal.timeout(TITLE_TIMEOUT_MS),
    })
    const now = app.store.getSession(sessionId)
    if (!title || !now || now.title !== before.title) return false
    app.store.updateSession(sessionId, { title })
    return true
  } catch {
    return false // a chat keeps its first message as its title
  }
}

/** whether the model answered anything in the session (a partial answer counts) */
function answered(app: AppServices, sessionId: string): boolean {
  return app.store.listMessages(sessionId).some((m) => m.role === 'assistant')
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
  { flags, env }: Pick<TurnInput, 'flags' | 'env'>,
  localModel: (served: string[]) => string | undefined,
): Promise<ProviderChoice> {
  // the assistant's provider comes before the environment's and the active one, not a flag's
  const sources = providerSources(assistant, settings, env, !!flags.baseUrl)
  const resolved = resolveProvider({
    flags,
    ...sources,
    storedKey: (id) => app.secrets.getApiKey(id),
  })
  if (resolved) return resolved
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

/** With no model configured, an endpoint that serves exactly one model gets that one. */
async function onlyModel(client: LlmClient, provider: ProviderChoice): Promise<string> {
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

/**
 * The operating system as the model should read it: `Linux 6.1.0 (x64)`,
 * `Windows 10.0.22631 (x64)`, `macOS (arm64)` (macOS reports its kernel's version, not its own).
 */
function describeOs(): string {
  const p = process.platform
  if (p === 'darwin') return `macOS (${process.arch})`
  const name = p === 'linux' ? 'Linux' : p === 'win32' ? 'Windows' : p
  return `${name} ${os.release().split('-')[0]} (${process.arch})`
}
