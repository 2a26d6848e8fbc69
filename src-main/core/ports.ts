/**
 * The small interfaces through which the core reaches the outside world. Adapters
 * (SQLite, files, settings, MCP) and hosts (CLI, browser mode, Electron) implement them.
 */
import type {
  ApprovalDecision,
  AttachmentPart,
  ContentPart,
  NewMessage,
  SessionRecord,
  StoredMessage,
  TodoItem,
} from '../../src-preload/contract/dto'
import type { ElicitAnswer } from '../../src-preload/contract/elicitation'
import type {
  ElicitationRequestEvent,
  ApprovalRequestEvent,
  ToolAnnotations,
} from '../../src-preload/contract/events'

export interface NewSession {
  title?: string
  provider?: string | null
  model?: string | null
  workspace?: string | null
  systemPrompt?: string | null
  /** the project the session is in (checked by the caller); unset: none */
  projectId?: string | null
}

export type SessionPatch = Partial<
  Pick<
    SessionRecord,
    | 'title'
    | 'provider'
    | 'model'
    | 'workspace'
    | 'systemPrompt'
    | 'todos'
    | 'pinned'
    | 'archived'
    | 'projectId'
  >
>

/** Sessions and their messages. Each call is one transaction. */
export interface SessionStore {
  createSession(init?: NewSession): SessionRecord
  getSession(id: string): SessionRecord | null
  updateSession(id: string, patch: SessionPatch): SessionRecord
  /** the whole history, every branch, in seq order */
  listMessages(sessionId: string): StoredMessage[]
  /**
   * Appends one finished message after `message.parentSeq` (unset: the end of the open
   * branch): the row, its search index entry, the session's `updatedAt`, its usage totals
   * (from `message.usage`), for the first user message of an untitled session its title,
   * and the open branch (a message after its end extends it; a user message opens its
   * own) — all in one transaction.
   */
  appendMessage(sessionId: string, message: NewMessage): StoredMessage
  /** opens the branch that ends at the message `seq` (not a summary) */
  setLeaf(sessionId: string, seq: number): SessionRecord
  /**
   * Answers every assistant tool call that has no tool result (a crash in the middle of
   * a turn) with a synthetic result, failure kind `interrupted`. Returns what it appended.
   */
  repairDanglingToolCalls(sessionId: string): StoredMessage[]
  setTodos(sessionId: string, todos: TodoItem[]): void
}

/**
 * The stored files of attachments (`attachments/<id>` in the data directory, the extracted
 * text of documents), read when a request is built. Null: the file is no longer there.
 */
export interface AttachmentReader {
  /** an image as a `data:` URL of the stored file (as it is sent) */
  imageDataUrl(part: AttachmentPart): string | null
  /** a document's extracted text */
  text(part: AttachmentPart): string | null
}

export interface TurnLogRequest {
  baseURL: string
  model: string
  /** the exact JSON body sent */
  body: unknown
  headers?: Record<string, string>
  /** the turn this call belongs to, and its round within the turn (1-based) */
  turnId: string
  round: number
  attempt: number
  /** how the request view was built (what was summarized, cut or left out) */
  diagnostics?: Record<string, unknown>
}

export interface TurnLogResponse {
  content: string
  reasoning: string | null
  toolCalls: { id: string; name: string; arguments: string }[]
  finishReason: string | null
  usage: { inputTokens: number; outputTokens: number; estimated: boolean } | null
  latencyMs: number
  timeToFirstTokenMs: number | null
  /** output tokens over the generation time (first token to end of stream); null when unknown */
  tokensPerSecond?: number | null
  /** the model the server says answered (`chunk.model`); null when it named none */
  servedModel?: string | null
  retries: { attempt: number; reason: string; delayMs: number }[]
  error: { code: string; message: string } | null
  status: 'complete' | 'stopped' | 'interrupted' | 'error'
}

export interface TurnLogHandle {
  /** the call's number within the session, from 1 */
  readonly number: number
  finish(response: TurnLogResponse): Promise<void>
}

/** `<dataDir>/logs/sessions/<id>/turn-NNN-{request,response}.json` */
export interface TurnLogger {
  begin(sessionId: string, request: TurnLogRequest): Promise<TurnLogHandle>
}

/**
 * How many characters make a token for a model, learned from the usage its server reports:
 * the token estimate is calibrated by it (null: not learned yet, the default is used).
 */
export interface TokenCalibration {
  charsPerToken(provider: string, model: string): number | null
  /** a request of `chars` characters was counted as `tokens` input tokens by the server */
  observe(provider: string, model: string, chars: number, tokens: number): void
}

/**
 * HTTP requests (the model servers: chat streams, model lists, what a server says about a
 * model). The hosts pass the runtime's `fetch`; tests may pass one that watches or fails.
 */
export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>

export interface Clock {
  now(): number
  /** resolves after `ms`, rejects with the signal's reason when it aborts */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

/** Asks the user. The host shows the request (dialog, terminal prompt) and answers. */
export interface Approver {
  request(
    request: ApprovalRequestEvent,
    signal: AbortSignal,
  ): Promise<{ decision: ApprovalDecision; reason?: string }>
}

/**
 * Asks the user what a server wants to know during one of its tool calls (MCP
 * elicitation). The host shows the form (window, terminal) and answers; aborting the signal
 * (Stop) withdraws the question.
 */
export interface Elicitor {
  request(request: ElicitationRequestEvent, signal: AbortSignal): Promise<ElicitAnswer>
}

/** What a server asks, as a tool source passes it to the call's `elicit`. */
export interface ElicitationAsk {
  server: string
  mode: 'form' | 'url'
  message: string
  requestedSchema?: Record<string, unknown>
  url?: string
}

export interface ToolProgress {
  progress: number
  total?: number
  message?: string
}

/** Remembered "always allow" decisions (persisted in settings). */
export interface PermissionRuleStore {
  isAlwaysAllowed(tool: ToolDescriptor): boolean
  rememberAlwaysAllow(tool: ToolDescriptor): void
}

export interface ToolDescriptor {
  /** the name the model sees, `^[a-zA-Z0-9_-]{1,64}$` */
  name: string
  /** the server's name (`cairn` for built-in tools) */
  server: string
  /** the server's own name for the tool */
  tool: string
  description: string
  /** JSON schema of the arguments (an object schema) */
  inputSchema: Record<string, unknown>
  annotations: ToolAnnotations
  /** whether the server's annotations are trusted (always true for built-in tools) */
  trusted: boolean
  /** fingerprint of the server's configuration and of this tool's description and schema */
  fingerprint: string
}

/** What one tool call runs within: its stop signal, its session and id, the ways back to the user. */
export interface ToolCallScope {
  signal: AbortSignal
  sessionId: string
  toolCallId: string
  /**
   * The fingerprint of the tool as the model was offered it and as it was approved; a host
   * that knows the tool's current fingerprint refuses the call when it differs.
   */
  fingerprint?: string
  /** the tool reported progress */
  onProgress?(progress: ToolProgress): void
  /**
   * The tool's server asks the user something; resolves with the answer (`cancel` when the
   * call is stopped, `decline` where nobody can be asked).
   */
  elicit?(ask: ElicitationAsk): Promise<ElicitAnswer>
}

export interface ToolOutcome {
  content: ContentPart[]
  isError?: boolean
  structuredContent?: unknown
  /** the result's `_meta` from an MCP server, passed on as is */
  meta?: Record<string, unknown>
}

/** Where the tools come from: in-process tools in tests, MCP servers and built-ins later. */
export interface ToolHost {
  listTools(): ToolDescriptor[] | Promise<ToolDescriptor[]>
  /** `name` is the model-visible name; `args` are already validated against the schema */
  callTool(name: string, args: Record<string, unknown>, ctx: ToolCallScope): Promise<ToolOutcome>
  /**
   * Waits (bounded) for tool sources that are still starting. Returns notices naming the
   * sources that are not ready.
   */
  waitUntilReady?(signal: AbortSignal): Promise<string[]>
}

/** A tool annotated read-only, where the annotation can be believed. */
export function isTrustedReadOnly(tool: ToolDescriptor): boolean {
  return tool.annotations.readOnlyHint === true && tool.trusted
}
