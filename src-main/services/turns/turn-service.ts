/**
 * One turn in a session, for every host: plan it (`turn-plan.ts`), open or create its
 * session under the session's lease, run it (`core/agent/turn-runner.ts`), and name a new
 * session afterwards.
 */
import { randomUUID } from 'node:crypto'
import os from 'node:os'
import type {
  ContentPart,
  PermissionPolicy,
  SessionRecord,
} from '../../../src-preload/contract/dto'
import type { AgentEvent } from '../../../src-preload/contract/events'
import type { TurnLimits } from '../../core/agent/limits'
import { modelForTier, type TierModel } from '../../core/agent/model-tiers'
import { writeTitle } from '../../core/agent/session-title'
import type { TurnDeps } from '../../core/agent/turn-state'
import { runTurn, type TurnOutcome } from '../../core/agent/turn-runner'
import { storeUserMessage, type StoredUserMessage } from '../../core/agent/user-message'
import { storageFailure } from '../../core/agent/save-failure'
import { systemClock } from '../../core/clock'
import { ExpectedError, type BugReporter } from '../../core/errors'
import type { Approver, Elicitor, ToolHost } from '../../core/ports'
import type { SessionLease } from '../../core/service-ports'
import { AssistantToolHost } from '../../core/tools/assistant-filter'
import { assistantPolicy, assistantSystemPrompt } from '../assistants/assistant-setup'
import { projectSystemPrompt } from '../projects/project-setup'
import type { AppServices } from '../host/app-services'
import type { ProviderChoice, ProviderFlags } from '../providers/provider'
import { providerKey } from '../providers/local-provider'
import { branchStart, type BranchChoice } from './branch-start'
import { planTurn, SetupError, setupTurnModel, type TurnPlan } from './turn-plan'
import { ModelCannotSee } from '../../core/attachments/refusal'
import { modelSeesAttachedImages } from '../providers/model-setup'

export interface TurnInput {
  sessionId?: string
  text: string
  /** resources attached to the message, already read (stored with it) */
  parts?: ContentPart[]
  /**
   * Where the turn starts in an existing session (`branch-start.ts`): after an earlier
   * message, as a new version of a user message, or as another answer to one (then `text`
   * is not used). Unset: after the end of the open branch.
   */
  branch?: BranchChoice
  flags: ProviderFlags
  env: NodeJS.ProcessEnv
  policy?: PermissionPolicy
  limits?: Partial<TurnLimits>
  /** the workspace folder for the built-in file tools (a session keeps its own until switched) */
  workspace?: string
  /** a new session starts in this project (an id or a name); an existing one keeps its own */
  projectId?: string
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
  /** logs a bug that ends the turn; its id goes in the turn's `internal` error */
  reportBug?: BugReporter
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
  const plan = await planTurn(app, input, found)
  if (input.branch && !plan.existing) {
    throw new ExpectedError('bad_request', 'A new chat has no earlier message to start from.')
  }
  await refuseImagesToBlindModel(plan, input.parts)
  const session = openSession(app, input, plan, leaseNew)
  const start = input.branch ? branchStart(app.store, session.id, input.branch) : {}
  const parts = input.parts ?? start.parts
  const turnId = randomUUID()
  const begin = {
    sessionId: session.id,
    turnId,
    text: input.text,
    ...(parts ? { parts } : {}),
    ...(start.parentSeq !== undefined ? { parentSeq: start.parentSeq } : {}),
    ...(start.supersedes !== undefined ? { supersedes: start.supersedes } : {}),
    ...(start.answerAgain !== undefined ? { answerAgain: start.answerAgain } : {}),
  }
  // stored before the send is acknowledged, and before the model's server is probed
  const stored = storeFirst(app, begin, !plan.existing)
  const kept = plan.existing ? null : keptOnlyIfAnswered(app, input, session.id)
  input.onStart?.({ session, turnId, provider: plan.provider, model: plan.model })
  const { llm, limits } = await setupTurnModel(plan, session, input)
  const outcome = await runTurn(turnDeps(app, input, plan, session, llm), {
    ...begin,
    stored,
    policy: assistantPolicy(plan.assistant, plan.settings, input.policy),
    limits,
    systemPrompt: projectSystemPrompt(
      assistantSystemPrompt(session, plan.assistant, plan.settings),
      plan.project,
    ),
    environment: {
      os: describeOs(),
      workspace: session.workspace ?? plan.settings.defaultWorkspace ?? app.defaultWorkspace(),
    },
    ...(input.signal ? { signal: input.signal } : {}),
    emit: kept?.emit ?? input.emit,
  })
  const discarded = kept?.discarded() ?? false
  if (discarded) await app.turnLogs.deleteSession(session.id).catch(() => undefined)
  // named by the utility model, after the turn (it holds nothing up), when the user wants it
  const titled =
    !plan.existing && !discarded && outcome.reason === 'completed' && plan.settings.generateTitles
      ? nameSession(app, session.id, modelForTier(llm, 'utility'))
      : undefined
  return { sessionId: session.id, turnId, outcome, discarded, ...(titled ? { titled } : {}) }
}

/**
 * Images attached for a model the server says cannot see are refused before anything is
 * saved or sent, naming them (the window keeps the message and its files).
 */
async function refuseImagesToBlindModel(plan: TurnPlan, parts: TurnInput['parts']): Promise<void> {
  const images = (parts ?? []).flatMap((p) =>
    p.type === 'attachment' && p.kind === 'image' ? [p.name] : [],
  )
  if (images.length === 0) return
  if (!(await modelSeesAttachedImages(plan.provider, plan.model)))
    throw new ModelCannotSee(plan.model, images)
}

/**
 * The turn's session: the existing one, brought to the plan's model, provider and
 * workspace, or a new one (whose lease is taken at once). Either records the assistant the
 * turn runs with, and keeps a copy of it.
 */
function openSession(
  app: AppServices,
  input: Pick<TurnInput, 'workspace'>,
  { existing, project, provider, model, assistant, settings }: TurnPlan,
  leaseNew: (sessionId: string) => void,
): SessionRecord {
  let session: SessionRecord
  if (existing) {
    session = existing
    // a chat in a project works in the project's folder
    const workspace = input.workspace ?? project?.workspace ?? existing.workspace
    if (
      existing.model !== model ||
      existing.provider !== providerKey(provider) ||
      existing.workspace !== workspace
    ) {
      session = app.store.updateSession(existing.id, {
        model,
        provider: providerKey(provider),
        workspace,
      })
    }
  } else {
    session = app.store.createSession({
      provider: providerKey(provider),
      model,
      workspace:
        input.workspace ??
        project?.workspace ??
        assistant.workspace ??
        settings.defaultWorkspace ??
        null,
      projectId: project?.id ?? null,
    })
    leaseNew(session.id)
  }
  app.assistants.setForSession(session.id, assistant)
  return session
}

/**
 * Stores the user's message first: whoever is told "sent" (the window, by `onStart`) can
 * rely on it being there, whatever happens to the host next. A message that cannot be stored
 * leaves no new session behind and fails the send, saying what is wrong and what was not saved.
 */
function storeFirst(
  app: AppServices,
  begin: Parameters<typeof storeUserMessage>[1],
  isNew: boolean,
): StoredUserMessage {
  try {
    return storeUserMessage(app.store, begin)
  } catch (e) {
    if (isNew) {
      try {
        app.store.deleteSession(begin.sessionId)
      } catch {
        // the store refuses every write now: the damage is what the user is told about
      }
    }
    const failure = storageFailure(e, false)
    if (!failure) throw e
    // the store's own code and details (the damaged file), with what was not saved
    const details = 'details' in failure ? failure.details : undefined
    throw new ExpectedError(failure.code, failure.message, { cause: e, details })
  }
}

/**
 * A new session is kept only once its first request got an answer: a first turn that
 * fails before one (the server cannot be reached, the key is rejected) leaves no session.
 * `emit` deletes it at such a turn's end, and says so in the event.
 */
function keptOnlyIfAnswered(
  app: AppServices,
  input: Pick<TurnInput, 'emit' | 'text'>,
  sessionId: string,
): { emit: (e: AgentEvent) => void; discarded: () => boolean } {
  let discarded = false
  const emit = (e: AgentEvent): void => {
    if (e.type === 'turn_end' && e.reason === 'error' && !answered(app, sessionId)) {
      // its files stay a while: the window puts the message back, to be sent again
      discarded = app.store.deleteSession(sessionId, { keepAttachments: true })
      if (discarded) {
        input.emit({ ...e, discardedSession: { text: input.text } })
        return
      }
    }
    input.emit(e)
  }
  return { emit, discarded: () => discarded }
}

/** What the turn runs with: the stores, the assistant's tools, the host's approver, the model. */
function turnDeps(
  app: AppServices,
  input: TurnInput,
  { assistant }: TurnPlan,
  session: SessionRecord,
  llm: TurnDeps['llm'],
): TurnDeps {
  return {
    store: app.store,
    // what the assistant does not allow is not offered, and unknown if called
    tools: new AssistantToolHost(input.tools(session), assistant.tools),
    approver: input.approver,
    ...(input.elicitor ? { elicitor: input.elicitor } : {}),
    rules: app.rules,
    clock: systemClock,
    logger: app.logger,
    ...(app.calibration ? { calibration: app.calibration } : {}),
    ...(input.reportBug ? { reportBug: input.reportBug } : {}),
    attachments: app.attachments.reader,
    llm,
  }
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
