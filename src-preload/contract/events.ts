import type {
  ApprovalDecision,
  ContentPart,
  DecidedBy,
  ErrorInfo,
  FailureKind,
  MessageStatus,
  Role,
} from './dto'

/** Why a turn ended. */
export type TurnEndReason =
  | 'completed'
  | 'aborted'
  | 'max_iterations'
  | 'max_tool_executions'
  | 'deadline'
  | 'loop'
  | 'tool_failure'
  | 'denied'
  | 'error'

export interface ToolAnnotations {
  title?: string
  readOnlyHint?: boolean
  destructiveHint?: boolean
  idempotentHint?: boolean
  openWorldHint?: boolean
}

interface Base {
  sessionId: string
  turnId: string
  /** ms since epoch */
  at: number
}

export interface TurnStartEvent extends Base {
  type: 'turn_start'
  model: string
  provider: string
  /**
   * the seq of the message the turn's first message follows (null: it starts the
   * session); a turn that answers a message again follows that message
   */
  after?: number | null
  /** the turn answers this user message (its seq) again: it saves no message of its own */
  answerAgain?: number
}
export interface TextDeltaEvent extends Base {
  type: 'text_delta'
  text: string
}
export interface ReasoningDeltaEvent extends Base {
  type: 'reasoning_delta'
  text: string
}
export interface ToolCallEvent extends Base {
  type: 'tool_call'
  id: string
  /** the name as the model sees it */
  name: string
  server: string
  /** the server's own name for the tool */
  tool: string
  /** the parsed object, or null when the arguments were invalid */
  arguments: Record<string, unknown> | null
  rawArguments: string
  readOnly: boolean
}
/**
 * A tool call waits for the user's approval (answered with `approvals.respond`). The event
 * keeps its name `permission_request`: `cairn --json` prints it for scripts.
 */
export interface ApprovalRequestEvent extends Base {
  type: 'permission_request'
  requestId: string
  toolCallId: string
  name: string
  server: string
  tool: string
  description: string
  arguments: Record<string, unknown>
  annotations: ToolAnnotations
  /** whether the server's annotations are trusted */
  trusted: boolean
  /** the call comes from the tool view (MCP Apps) of `server`, not from the model */
  fromView?: boolean
}
export interface PermissionDecisionEvent extends Base {
  type: 'permission_decision'
  requestId: string
  toolCallId: string
  decision: ApprovalDecision
  reason?: string
  /** the user in the dialog, a remembered "always allow" rule, or the permission policy */
  by: DecidedBy
}
/**
 * A server asks the user something while one of its tool calls runs (MCP elicitation): a
 * form built from `requestedSchema`, or (`mode: 'url'`) an address to open.
 */
export interface ElicitationRequestEvent extends Base {
  type: 'elicitation_request'
  requestId: string
  toolCallId: string
  /** the server that asks */
  server: string
  mode: 'form' | 'url'
  message: string
  /** form mode: the server's schema of the answer (read with `elicitationFields`) */
  requestedSchema?: Record<string, unknown>
  /** url mode: the address the server wants opened */
  url?: string
}
export interface ElicitationResolvedEvent extends Base {
  type: 'elicitation_resolved'
  requestId: string
  toolCallId: string
  action: 'accept' | 'decline' | 'cancel'
}
/** A running tool call reported progress (`notifications/progress`). */
export interface ToolProgressEvent extends Base {
  type: 'tool_progress'
  /** the tool call's id */
  id: string
  progress: number
  total?: number
  message?: string
}
export interface ToolResultEvent extends Base {
  type: 'tool_result'
  /** the tool call's id */
  id: string
  ok: boolean
  /** the text sent to the model */
  content: string
  durationMs: number
  synthetic: boolean
  failureKind?: FailureKind
  /** rich content for the UI (images, links), when the tool returned any */
  parts?: ContentPart[]
}
export interface RetryEvent extends Base {
  type: 'retry'
  attempt: number
  maxAttempts: number
  delayMs: number
  reason: string
  /** the UI drops what it showed of the failed attempt */
  discardPartial: boolean
}
export interface LoopWarningEvent extends Base {
  type: 'loop_warning'
  name: string
  count: number
}
export interface UsageEvent extends Base {
  type: 'usage'
  inputTokens: number
  outputTokens: number
  estimated: boolean
  turnInputTokens: number
  turnOutputTokens: number
  /** this call's cost in US dollars at the model's price; null when no price is known */
  cost?: number | null
  /** the turn's cost so far (its priced calls); null while none had a price */
  turnCost?: number | null
  /** ms from the request to the first token of this call; null when none came */
  timeToFirstTokenMs: number | null
  /** this call's output tokens over its generation time (first token to end); null when unknown */
  tokensPerSecond: number | null
}
export interface MessageSavedEvent extends Base {
  type: 'message_saved'
  messageId: string
  /**
   * the message's position in the session (its `StoredMessage.seq`). Not named `seq`: the
   * UI transports number every agent event with `seq` (`SequencedAgentEvent`), which
   * would overwrite it.
   */
  messageSeq: number
  /** the seq of the message it follows (`StoredMessage.parentSeq`) */
  parentSeq?: number | null
  role: Role
  status: MessageStatus
}
/** Something the user should know that is not an error (a server not ready, a context cut). */
export interface NoticeEvent extends Base {
  type: 'notice'
  level: 'info' | 'warning'
  message: string
}
/**
 * The middle of the conversation was summarized for the request (the stored messages are
 * unchanged): seqs `coveredFrom`..`coveredTo`, estimated tokens before and after. `fallback`:
 * the summary call failed and the covered messages were cut to their first characters.
 */
export interface ContextCompactedEvent extends Base {
  type: 'context_compacted'
  coveredFrom: number
  coveredTo: number
  tokensBefore: number
  tokensAfter: number
  fallback: boolean
  /** the summary message saved */
  summaryId: string
}
/** Still too large after compaction: the oldest whole rounds were left out of the request. */
export interface ContextTrimmedEvent extends Base {
  type: 'context_trimmed'
  /** messages left out */
  droppedMessages: number
  /** rounds (a user message and what followed it) left out */
  droppedRounds: number
  tokensBefore: number
  tokensAfter: number
}
export interface TurnEndEvent extends Base {
  type: 'turn_end'
  reason: TurnEndReason
  error?: ErrorInfo
  /**
   * the turn was a new session's first and failed before any answer, so the session was
   * not kept (it is deleted); `text` is what the user sent, to put back in the box
   */
  discardedSession?: { text: string }
}

export type AgentEvent =
  | TurnStartEvent
  | TextDeltaEvent
  | ReasoningDeltaEvent
  | ToolCallEvent
  | ApprovalRequestEvent
  | PermissionDecisionEvent
  | ElicitationRequestEvent
  | ElicitationResolvedEvent
  | ToolProgressEvent
  | ToolResultEvent
  | RetryEvent
  | LoopWarningEvent
  | UsageEvent
  | MessageSavedEvent
  | NoticeEvent
  | ContextCompactedEvent
  | ContextTrimmedEvent
  | TurnEndEvent

export type AgentEventType = AgentEvent['type']

/** An event as the emitter builds it: the loop stamps sessionId, turnId and at. */
export type AgentEventInput = AgentEvent extends infer E
  ? E extends AgentEvent
    ? Omit<E, 'sessionId' | 'turnId' | 'at'>
    : never
  : never
