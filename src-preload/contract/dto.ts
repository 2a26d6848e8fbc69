/**
 * DTOs that cross the process boundary. Plain data only: the core, the hosts and the
 * renderer all speak these shapes. This folder imports nothing but zod.
 */

import type { SessionAssistant } from './assistants'
import type { ModelPrice } from './usage'
import type { ErrorInfo } from './errors'

export type Role = 'system' | 'user' | 'assistant' | 'tool'

/** `message` is conversation; `summary` stands in for older messages; `notice` is shown, never sent. */
export type MessageKind = 'message' | 'summary' | 'notice'

/**
 * `stopped`: the user stopped it; `interrupted`: the stream or the process died;
 * `truncated`: the model hit its output limit (the answer is cut, and can be continued).
 */
export type MessageStatus = 'complete' | 'stopped' | 'interrupted' | 'truncated'

/** Why a tool call got a result that the tool itself did not produce. */
export type FailureKind =
  | 'denied'
  | 'cancelled'
  | 'timeout'
  | 'invalid_arguments'
  | 'unknown_tool'
  | 'tool_changed'
  | 'stopped'
  | 'interrupted'

export type ApprovalDecision = 'allow_once' | 'allow_always' | 'deny'

/** the policies are listed once, with their schema, in settings-schema.ts */
export type { PermissionPolicy } from './settings-schema'

export interface Usage {
  inputTokens: number
  outputTokens: number
  /** true when the server sent no usage and the numbers are our estimate */
  estimated: boolean
  /** of the input tokens, those the provider read from its cache (when it says) */
  cachedInputTokens?: number
  /** of the output tokens, those the model spent reasoning (when the server says) */
  reasoningTokens?: number
}

/** One tool call as the model produced it. `arguments` is the raw string received. */
export interface ToolCallRecord {
  id: string
  name: string
  arguments: string
}

export type ContentPart =
  | { type: 'text'; text: string }
  | { type: 'image'; mimeType: string; data: string }
  | { type: 'resource_link'; uri: string; name?: string; mimeType?: string }
  | { type: 'resource'; uri: string; mimeType?: string; text?: string }
  | AttachmentPart

/**
 * A file the user attached to a message (a photo, a screenshot, a document). The file is
 * stored once by its content in the data directory (`attachments/<id>`); the message keeps
 * this reference. An image is stored as it is sent (rotated, stripped of its metadata,
 * scaled, re-encoded); a document as it was given, with its extracted text beside it.
 */
export interface AttachmentPart {
  type: 'attachment'
  /** the sha256 of the stored file */
  id: string
  /** the file's name as the user gave it (shown as text, never as markup) */
  name: string
  kind: 'image' | 'document'
  /** the stored file's media type: `image/jpeg` or `image/png` for an image */
  mediaType: string
  /** the stored file's size in bytes */
  bytes: number
  /** the file as the user gave it */
  source: { mediaType: string; bytes: number; sha256: string }
  /** an image's size in pixels, as sent */
  width?: number
  height?: number
  /** a document's pages (PDF pages, slides), when it has any */
  pages?: number
  /** characters of text extracted from a document */
  chars?: number
  /** a document with no text to extract (a scanned PDF) */
  noText?: boolean
}

/** the kinds of file an attachment can be */
export type AttachmentKind = AttachmentPart['kind']

export interface TodoItem {
  id: string
  content: string
  status: 'pending' | 'in_progress' | 'completed'
}

export interface StoredMessage {
  id: string
  sessionId: string
  /** 1-based position in the session: its number (`cairn sessions show` prints it) */
  seq: number
  /**
   * The seq of the message this one follows (null: the first). The history is a tree: an
   * edited message, another answer or a message sent after an earlier one starts a
   * branch; nothing stored changes. A summary follows the message it was written after,
   * but no message follows a summary.
   */
  parentSeq: number | null
  turnId: string | null
  kind: MessageKind
  role: Role
  /** the text (for tool messages: the text sent to the model) */
  content: string
  /** rich content for the UI (images, links); null when `content` says it all */
  parts: ContentPart[] | null
  reasoning: string | null
  /** provider-specific fields that must be sent back on later requests */
  providerExtras: Record<string, unknown> | null
  toolCalls: ToolCallRecord[] | null
  toolCallId: string | null
  /** for tool messages: the tool's name as the model saw it */
  toolName: string | null
  provider: string | null
  model: string | null
  status: MessageStatus
  failureKind: FailureKind | null
  /** a tool result that reports a failure (the tool's own error, or a synthetic result) */
  isError: boolean
  usage: Usage | null
  /**
   * assistant messages: the price in force when the answer was stored (kept with it, so a
   * later price change does not rewrite history) and what the answer cost with it, in US
   * dollars; null when no price was known
   */
  price?: ModelPrice | null
  cost?: number | null
  /**
   * On a user message that is a new version of an earlier one (edit, retry, and regenerate
   * before answers had versions of their own): the earlier message's seq. `parentSeq` says
   * where it goes; this says what it was made from.
   */
  supersedes: number | null
  /** tool messages: how long the tool ran, in ms (null when it did not run) */
  durationMs: number | null
  /** assistant messages: how long the model reasoned before its answer began, in ms */
  reasoningMs: number | null
  /**
   * tool messages: who decided the call (the user in the dialog, a remembered "always
   * allow" rule, or the permission policy); null when nobody was asked (unknown tool, bad
   * arguments, stopped before the decision)
   */
  decidedBy: DecidedBy | null
  /** the user asked to keep it in context: never summarized or left out of the request */
  pinned?: boolean
  /**
   * summaries: the seqs of the first and last stored message it stands in for (pinned
   * messages in between stay verbatim); null on other messages and on older summaries,
   * which stand in for everything before them
   */
  covers?: { from: number; to: number } | null
  /**
   * assistant messages: the model the server says answered (`chunk.model`), when it is not
   * `model`, the one asked for (an alias resolved, a router's pick); null otherwise
   */
  servedModel: string | null
  createdAt: number
}

export type DecidedBy = 'user' | 'rule' | 'policy'

/**
 * What a writer supplies; the store assigns id, seq and createdAt. Without `parentSeq` the
 * message follows the end of the session's open branch.
 */
export type NewMessage = Pick<StoredMessage, 'role' | 'content'> &
  Partial<Omit<StoredMessage, 'id' | 'sessionId' | 'seq' | 'createdAt' | 'role' | 'content'>>

export interface SessionUsage {
  inputTokens: number
  outputTokens: number
  /** what the session's priced answers cost, in US dollars; null when none had a price */
  cost?: number | null
}

export interface SessionRecord {
  id: string
  title: string
  createdAt: number
  updatedAt: number
  provider: string | null
  model: string | null
  workspace: string | null
  systemPrompt: string | null
  todos: TodoItem[]
  usage: SessionUsage
  pinned: boolean
  archived: boolean
  messageCount: number
  /** where the open branch ends (the window shows it, the next message follows it); null: empty */
  leafSeq: number | null
  /** where the session came from, when it did not start here; null: it did */
  origin?: SessionOrigin | null
  /**
   * the assistant the session runs with (its next turn uses it); the session keeps a copy,
   * so it goes on working when the assistant is deleted. Absent: not known to this host.
   */
  assistant?: SessionAssistant | null
  /** the project the session is in; null: "No project". Absent: not known to this host. */
  projectId?: string | null
}

/**
 * The versions along a branch: for each message of it that has others at its point (other
 * messages that follow the message it follows: edits, other answers), every version's seq,
 * oldest first. "‹ 2/3 ›" switches between them.
 */
export type BranchVersions = Record<number, number[]>

/** The apps whose exports Cairn imports (`cairn`: its own JSON export). */
export type ImportSource = 'chatgpt' | 'claude' | 'cairn'

/** How far an import is: conversations read so far, and bytes of the export read of all. */
export interface ImportProgress {
  conversations: number
  bytes: number
  totalBytes: number
}

/**
 * A conversation an import left out, by its position in the file (1 = the first) and its
 * title: `malformed` (it is not a conversation Cairn can read), `truncated` (the file ends
 * before it does), `damaged` (the file cannot be read from there on). `reason` says more,
 * in English, from the reader.
 */
export interface ImportSkip {
  position: number
  title: string
  problem: 'malformed' | 'truncated' | 'damaged'
  reason: string
}

/** What an import did. Importing the same file again: `created` and `messages` are 0. */
export interface ImportSummary {
  /** conversations read from the file */
  conversations: number
  /** new chats */
  created: number
  /** chats an earlier import made that got new messages */
  updated: number
  /** conversations that were all there already */
  unchanged: number
  /** messages added in all */
  messages: number
  skipped: ImportSkip[]
  /** stopped by the user: what was imported before stays */
  cancelled: boolean
  /** the formats met (ChatGPT, Claude, Cairn) */
  sources: ImportSource[]
}

/**
 * An import started in the window, as `imports.progress` events tell it: running (with
 * its progress), then done or cancelled (with the summary) or failed (with the error).
 */
export interface ImportRun {
  importId: string
  /** the file's name */
  name: string
  state: 'running' | 'done' | 'cancelled' | 'failed'
  progress: ImportProgress
  summary?: ImportSummary
  error?: ErrorInfo
}

export type SessionOrigin =
  /** read from an export file, at `at` (`sourceId`: the conversation's id in it) */
  | { kind: 'import'; source: ImportSource; sourceId: string; at: number }
  /**
   * "Branch into new chat": a copy of another chat's branch up to one of its messages;
   * `title` is that chat's title then, `messageSeq` the message's number there (null once
   * that chat is gone)
   */
  | {
      kind: 'branch'
      sessionId: string
      messageId: string
      messageSeq: number | null
      title: string
      at: number
    }

export interface SearchHit {
  sessionId: string
  sessionTitle: string
  /** null when the hit is the session's title */
  messageId: string | null
  seq: number | null
  role: Role | null
  /**
   * text around the match; matches are wrapped in the markers given to the search (the
   * `sessions.search` route: U+0002 before, U+0003 after)
   */
  snippet: string
  createdAt: number
}

/** an error as it crosses the boundary: one of the closed codes, the message, typed details */
export type { ErrorInfo } from './errors'

/** `needs-login`: a remote server that wants the user to log in (OAuth) first */
export type McpServerState = 'starting' | 'ready' | 'error' | 'stopped' | 'needs-login'

/** One MCP server as the UI and `cairn mcp list` show it ("MCP doctor"). */
export interface McpServerInfo {
  name: string
  state: McpServerState
  /** what went wrong last, in words the user can act on */
  error: string | null
  transport: 'stdio' | 'streamable-http' | 'sse'
  /** the command line or URL exactly as configured */
  command: string
  /** the program that actually runs, after looking it up on the PATH */
  resolvedCommand: string | null
  enabled: boolean
  trustAnnotations: boolean
  tools: { name: string; description: string; readOnly: boolean }[]
  /** the last lines the server wrote to stderr */
  stderrTail: string
  /** automatic restarts since the last start by hand */
  restarts: number
  pid: number | null
  /** the folders searched for the command (stdio, once a start was tried) */
  searchPath: string[] | null
  /** what runs on this computer, for the user to confirm (null: a URL server) */
  commandLine: McpCommandLine | null
  /** the MCP revision the session speaks (`2026-07-28`, `2025-11-25`, …); null until connected */
  protocolVersion: string | null
}

/** A stdio server's command line, complete, as the user confirms it before it runs. */
export interface McpCommandLine {
  command: string
  args: string[]
  /** the names of the environment variables it sets (values are not shown) */
  envNames: string[]
  cwd: string | null
  /** binds a confirmation to exactly this command, arguments, environment and folder */
  fingerprint: string
}

/** An MCP server's configuration (the Claude Desktop format, plus Cairn's own keys). */
export type McpServerConfigDto = {
  disabled?: boolean
  trustAnnotations?: boolean
  timeoutMs?: number
  maxTimeoutMs?: number
} & (
  | { command: string; args?: string[]; env?: Record<string, string>; cwd?: string }
  | { url: string; headers?: Record<string, string> }
)

/** A server read from pasted JSON or Claude Desktop's file, for review before it is added. */
export interface McpServerDraft {
  name: string
  config: McpServerConfigDto
  /** the command line or URL, as `McpServerInfo.command` will show it */
  command: string
  commandLine: McpCommandLine | null
  /** a server of that name is configured already */
  exists: boolean
}
