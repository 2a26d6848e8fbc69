/**
 * Database rows and the DTOs they map to. The only place that knows column names.
 */
import type { ModelPrice } from '../../../src-preload/contract/usage'
import type {
  ContentPart,
  DecidedBy,
  FailureKind,
  ImportSource,
  MessageKind,
  MessageStatus,
  Role,
  SessionOrigin,
  SessionRecord,
  StoredMessage,
  TodoItem,
  ToolCallRecord,
} from '../../../src-preload/contract/dto'
import { DEFAULT_ASSISTANT_ID } from '../../../src-preload/contract/assistants'

export interface SessionRow {
  pk: number
  id: string
  title: string
  created_at: number
  updated_at: number
  provider: string | null
  model: string | null
  workspace: string | null
  system_prompt: string | null
  todos: string
  input_tokens: number
  output_tokens: number
  cost: number | null
  pinned: number
  archived: number
  message_count: number
  assistant_id: string | null
  /** the assistant's name now, else the name in the session's copy of it */
  assistant_name: string | null
  /** 1 when the assistant still exists */
  assistant_live: number
  leaf_seq: number | null
  source: string | null
  source_id: string | null
  source_message: string | null
  /** the seq of `source_message` in its session, when that message still exists */
  source_message_seq: number | null
  source_title: string | null
  source_at: number | null
  project_id: string | null
}

/** selects a `SessionRow` from `sessions s` */
export const SESSION_COLUMNS = `s.pk, s.id, s.title, s.created_at, s.updated_at, s.provider, s.model,
  s.workspace, s.system_prompt, s.todos, s.input_tokens, s.output_tokens, s.cost, s.pinned, s.archived,
  (SELECT count(*) FROM messages m WHERE m.session_id = s.id) AS message_count, s.assistant_id,
  coalesce((SELECT a.name FROM assistants a WHERE a.id = coalesce(s.assistant_id, 'default')),
    CASE WHEN json_valid(s.assistant_snapshot) THEN s.assistant_snapshot ->> '$.name' END)
    AS assistant_name,
  EXISTS (SELECT 1 FROM assistants a WHERE a.id = coalesce(s.assistant_id, 'default'))
    AS assistant_live, s.leaf_seq, s.source, s.source_id, s.source_message,
  (SELECT m.seq FROM messages m WHERE m.id = s.source_message) AS source_message_seq,
  s.source_title, s.source_at, s.project_id`

export interface MessageRow {
  pk: number
  id: string
  session_id: string
  seq: number
  parent_seq: number | null
  source_id: string | null
  turn_id: string | null
  kind: string
  role: string
  content: string
  parts: string | null
  reasoning: string | null
  provider_extras: string | null
  tool_calls: string | null
  tool_call_id: string | null
  tool_name: string | null
  provider: string | null
  model: string | null
  status: string
  failure_kind: string | null
  is_error: number
  input_tokens: number | null
  output_tokens: number | null
  usage_estimated: number | null
  cached_tokens: number | null
  reasoning_tokens: number | null
  price: string | null
  cost: number | null
  supersedes: number | null
  duration_ms: number | null
  reasoning_ms: number | null
  decided_by: string | null
  served_model: string | null
  pinned: number
  covers_from: number | null
  covers_to: number | null
  created_at: number
}

export const MESSAGE_COLUMNS = `pk, id, session_id, seq, parent_seq, source_id, turn_id, kind, role, content, parts,
  reasoning, provider_extras, tool_calls, tool_call_id, tool_name, provider, model, status,
  failure_kind, is_error, input_tokens, output_tokens, usage_estimated, supersedes, duration_ms,
  reasoning_ms, decided_by, served_model, pinned, covers_from, covers_to, created_at,
  cached_tokens, reasoning_tokens, price, cost`

function json<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T)
}

export function toJson(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value)
}

export function toSession(row: SessionRow): SessionRecord {
  return {
    id: row.id,
    title: row.title,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    provider: row.provider,
    model: row.model,
    workspace: row.workspace,
    systemPrompt: row.system_prompt,
    todos: json<TodoItem[]>(row.todos) ?? [],
    usage: {
      inputTokens: row.input_tokens,
      outputTokens: row.output_tokens,
      // only once an answer had a price: sums of float costs kept to a millionth of a cent
      ...(row.cost !== null ? { cost: Math.round(row.cost * 1e8) / 1e8 } : {}),
    },
    pinned: row.pinned !== 0,
    archived: row.archived !== 0,
    messageCount: row.message_count,
    leafSeq: row.leaf_seq,
    origin: originOf(row),
    assistant: {
      id: row.assistant_id ?? DEFAULT_ASSISTANT_ID,
      name: typeof row.assistant_name === 'string' ? row.assistant_name : 'Unknown assistant',
      ...(row.assistant_live ? {} : { deleted: true }),
    },
    projectId: row.project_id,
  }
}

const IMPORT_SOURCES = new Set<string>(['chatgpt', 'claude', 'cairn'])

/** where the session came from: an import, a branch of another chat, or nowhere else */
function originOf(row: SessionRow): SessionOrigin | null {
  if (row.source === 'branch' && row.source_id && row.source_message) {
    return {
      kind: 'branch',
      sessionId: row.source_id,
      messageId: row.source_message,
      messageSeq: row.source_message_seq,
      title: row.source_title ?? '',
      at: row.source_at ?? row.created_at,
    }
  }
  if (row.source && IMPORT_SOURCES.has(row.source) && row.source_id) {
    return {
      kind: 'import',
      source: row.source as ImportSource,
      sourceId: row.source_id,
      at: row.source_at ?? row.created_at,
    }
  }
  return null
}

export function toMessage(row: MessageRow): StoredMessage {
  return {
    id: row.id,
    sessionId: row.session_id,
    seq: row.seq,
    parentSeq: row.parent_seq,
    turnId: row.turn_id,
    kind: row.kind as MessageKind,
    role: row.role as Role,
    content: row.content,
    parts: json<ContentPart[]>(row.parts),
    reasoning: row.reasoning,
    providerExtras: json<Record<string, unknown>>(row.provider_extras),
    toolCalls: json<ToolCallRecord[]>(row.tool_calls),
    toolCallId: row.tool_call_id,
    toolName: row.tool_name,
    provider: row.provider,
    model: row.model,
    status: row.status as MessageStatus,
    failureKind: row.failure_kind as FailureKind | null,
    isError: row.is_error === 1,
    usage:
      row.input_tokens === null || row.output_tokens === null
        ? null
        : {
            inputTokens: row.input_tokens,
            outputTokens: row.output_tokens,
            estimated: row.usage_estimated === 1,
            ...(row.cached_tokens !== null ? { cachedInputTokens: row.cached_tokens } : {}),
            ...(row.reasoning_tokens !== null ? { reasoningTokens: row.reasoning_tokens } : {}),
          },
    // only on an answer that had a price
    ...(row.cost !== null ? { price: json<ModelPrice>(row.price), cost: row.cost } : {}),
    supersedes: row.supersedes,
    durationMs: row.duration_ms,
    reasoningMs: row.reasoning_ms,
    decidedBy: row.decided_by as DecidedBy | null,
    servedModel: row.served_model,
    pinned: row.pinned === 1,
    covers:
      row.covers_from === null || row.covers_to === null
        ? null
        : { from: row.covers_from, to: row.covers_to },
    createdAt: row.created_at,
  }
}
