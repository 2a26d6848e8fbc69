import type { BugReporter } from '../errors'
import type { ModelPrice } from '../../../src-preload/contract/usage'
import type {
  ContentPart,
  DecidedBy,
  NewMessage,
  PermissionPolicy,
  StoredMessage,
} from '../../../src-preload/contract/dto'
import type { AgentEvent, AgentEventInput } from '../../../src-preload/contract/events'
import type { LlmClient } from '../llm/client'
import type {
  AttachmentReader,
  Approver,
  Clock,
  Elicitor,
  PermissionRuleStore,
  SessionStore,
  TokenCalibration,
  ToolHost,
  TurnLogger,
} from '../ports'
import type { TurnLimits } from './limits'
import { LoopDetector } from './loop-detector'
import { PermissionGate } from './permissions'
import { NotSavedError } from './save-failure'
import { ToolCatalog, toolLimit } from './tool-catalog'
import type { StoredUserMessage } from './user-message'

/** Everything a turn needs from the outside. */
export interface TurnDeps {
  store: SessionStore
  tools: ToolHost
  approver: Approver
  /** asks the user what a server wants to know during a tool call; none: declined */
  elicitor?: Elicitor
  rules: PermissionRuleStore
  clock: Clock
  logger?: TurnLogger
  /** learns each model's characters per token from the usage servers report */
  calibration?: TokenCalibration
  /** logs a bug that ended the turn; its id goes in the turn's `internal` error */
  reportBug?: BugReporter
  /** the stored files of attached images and documents */
  attachments?: AttachmentReader
  llm: {
    /** `complete`: the non-streamed call that writes summaries (without it, compaction cuts instead) */
    client: Pick<LlmClient, 'streamChat' | 'buildBody'> & Partial<Pick<LlmClient, 'complete'>>
    baseURL: string
    /** identifies the endpoint; reasoning goes back only to the same provider and model */
    provider: string
    model: string
    /** the model for utility work (summaries) on the same endpoint; unset: `model` */
    utilityModel?: string
    /** the model accepts images: images returned by tools are passed to it */
    imageInput?: boolean
    /** false: the model cannot see, so attached images are named, not sent (default: sent) */
    attachedImages?: boolean
    /** false: the model cannot use tools, so none are sent (and the user is told) */
    tools?: boolean
    /** extra request body fields for this model (its thinking switch, say) */
    params?: Record<string, unknown>
    /** what the user should know about this model before its first answer (said once) */
    notices?: string[]
    /** the model's price now (stored with each answer, which keeps it); unset: none known */
    price?: ModelPrice | null
  }
}

export interface TurnRequest {
  sessionId: string
  turnId: string
  /** the user's message */
  text: string
  /** what is attached to it (resources read when it was sent), stored with it */
  parts?: ContentPart[]
  /**
   * Where the user's message goes (checked by the caller): the seq of the message it
   * follows (null: it is the first). Unset: after the end of the session's open branch.
   */
  parentSeq?: number | null
  /**
   * Edit, retry: the seq of the user message this turn's message is a new version of (it
   * follows what that one followed, unless `parentSeq` says otherwise; saved as its
   * `supersedes`). The earlier version stays stored, on its own branch.
   */
  supersedes?: number
  /**
   * Regenerate: no new message; the turn answers the user message with this seq again (a
   * new branch after it). `text` and `parts` are not used.
   */
  answerAgain?: number
  /**
   * Where the turn begins and its user's message, stored already by the host (before it
   * acknowledged the send, see `user-message.ts`); unset: the turn stores it first
   */
  stored?: StoredUserMessage
  policy: PermissionPolicy
  limits: TurnLimits
  systemPrompt: string | null
  /**
   * What the system prompt tells the model about where it runs (with the date, the todo
   * list and the files the session's tools used); absent: the system prompt alone
   */
  environment?: { os: string; workspace: string | null }
  /** the stop button: abort with `new AbortReason('stop')` */
  signal?: AbortSignal
  emit: (event: AgentEvent) => void
}

/** The state of one running turn, shared by the LLM round and the tool round. */
export interface TurnState {
  readonly deps: TurnDeps
  readonly req: TurnRequest
  /** aborted by the stop button (reason `stop`) or the deadline (reason `deadline`) */
  readonly signal: AbortSignal
  /** the branch the turn goes on: its messages up to the newest, and the summaries that apply */
  readonly history: StoredMessage[]
  /** the seq the turn's next message follows: the last message it saved, or where it began */
  tip: number | null
  readonly gate: PermissionGate
  readonly loop: LoopDetector
  toolExecutions: number
  /** who allowed or denied each call of the current tool round, by tool call id */
  readonly decisions: Map<string, DecidedBy>
  /** the last context-fitting notice given in this turn, so it is not repeated every round */
  contextNotice: string | null
  emit(event: AgentEventInput): void
  /** the hot path: one call per streamed piece of text or reasoning */
  emitDelta(type: 'text_delta' | 'reasoning_delta', text: string): void
  /** persists a finished message, adds it to the history and says so */
  save(message: NewMessage): StoredMessage
  /** adds a message stored already (the user's) to the history and says so */
  saved(message: StoredMessage): StoredMessage
}

/**
 * The state of a new turn, its history still empty: past the tool limit its tools are a
 * catalog the model searches with find_tools; every event carries the session, the turn and
 * the time; `save` stores a message, adds it to the history and says so.
 */
export function createTurnState(deps: TurnDeps, req: TurnRequest, signal: AbortSignal): TurnState {
  const emit = (e: AgentEventInput): void =>
    req.emit({
      ...e,
      sessionId: req.sessionId,
      turnId: req.turnId,
      at: deps.clock.now(),
    } as AgentEvent)
  const history: StoredMessage[] = []
  const state: TurnState = {
    deps: { ...deps, tools: new ToolCatalog(deps.tools, toolLimit(req.limits.maxToolsOffered)) },
    req,
    signal,
    history,
    tip: null,
    gate: new PermissionGate(req.policy, deps.approver, deps.rules),
    loop: new LoopDetector(req.limits.loopThreshold, req.limits.loopMaxWarnings),
    toolExecutions: 0,
    decisions: new Map(),
    contextNotice: null,
    emit,
    emitDelta: (type, text) =>
      req.emit({ type, text, sessionId: req.sessionId, turnId: req.turnId, at: deps.clock.now() }),
    // each message follows the turn's last one; a summary follows it too, but starts nothing
    save: (message: NewMessage): StoredMessage => {
      let saved: StoredMessage
      try {
        saved = deps.store.appendMessage(req.sessionId, {
          turnId: req.turnId,
          parentSeq: state.tip,
          ...message,
        })
      } catch (e) {
        throw new NotSavedError(message, e)
      }
      return record(saved)
    },
    saved: (saved) => record(saved),
  }
  const record = (saved: StoredMessage): StoredMessage => {
    history.push(saved)
    if (saved.kind !== 'summary') state.tip = saved.seq
    emit({
      type: 'message_saved',
      messageId: saved.id,
      messageSeq: saved.seq,
      parentSeq: saved.parentSeq,
      role: saved.role,
      status: saved.status,
    })
    return saved
  }
  return state
}
