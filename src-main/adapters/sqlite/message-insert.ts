/**
 * Writing one message: its row, its index entry, the session's activity, usage totals and
 * title, its attached files' links, and the open branch.
 */
import { randomUUID } from 'node:crypto'
import type { MessageKind, NewMessage, StoredMessage } from '../../../src-preload/contract/dto'
import { attachmentIds, type AttachmentRows } from './attachment-rows'
import { readMessage } from './row-check'
import { toJson } from './rows'
import { hasNoSpaceScript } from './search-substring'
import { SessionNotFoundError } from './session-errors'
import type { Statements } from './statements'
import { indexedText, titleFromText } from './text'

/** what writing a message needs of the store (called inside its write transaction) */
export interface InsertContext {
  q: Statements
  attachments: AttachmentRows
  now: () => number
}

/**
 * The row, its index entry, the session's activity, usage totals and title, and its open
 * branch: a message that follows the end of the open branch extends it, and a new user
 * message opens its own branch (it was sent there).
 */
export function insertMessageRow(
  ctx: InsertContext,
  sessionId: string,
  message: NewMessage,
  ids: { id?: string; sourceId?: string; createdAt?: number } = {},
): StoredMessage {
  const session = ctx.q.sessionHead.get(sessionId)
  if (!session) throw new SessionNotFoundError(sessionId)
  const seq = ctx.q.nextSeq.get(sessionId)?.seq ?? 1
  const now = ctx.now()
  const kind = message.kind ?? 'message'
  const usage = message.usage ?? null
  const parent = message.parentSeq !== undefined ? message.parentSeq : session.leaf_seq
  if (parent !== null && !ctx.q.linkExists.get(sessionId, parent)) {
    throw new Error(`message ${parent} of session ${sessionId} cannot be followed: there is none`)
  }
  const { lastInsertRowid } = ctx.q.insertMessage.run(
    messageColumns(message, { ...ids, sessionId, seq, parent, kind, now }),
  )
  const pk = Number(lastInsertRowid)
  const opens =
    kind !== 'summary' &&
    (session.leaf_seq === parent || (message.role === 'user' && kind === 'message'))
  if (opens) ctx.q.setLeaf.run(seq, session.pk)
  const title =
    session.title === '' && message.role === 'user' && kind === 'message'
      ? titleFromText(message.content)
      : ''
  ctx.q.touchSession.run({
    now,
    input: usage?.inputTokens ?? 0,
    output: usage?.outputTokens ?? 0,
    cost: message.cost ?? null,
    title,
    pk: session.pk,
  })
  indexMessage(ctx, pk, { ...message, kind })
  const row = ctx.q.messageByPk.get(pk)
  if (!row) throw new Error(`message ${pk} vanished inside its own transaction`)
  return readMessage(row)
}

interface RowPlace {
  id?: string
  sourceId?: string
  createdAt?: number
  sessionId: string
  seq: number
  parent: number | null
  kind: string
  now: number
}

/** the `messages` row's columns for a message */
function messageColumns(message: NewMessage, at: RowPlace) {
  const { sessionId, seq, parent, kind, now } = at
  const usage = message.usage ?? null
  return {
    id: at.id ?? randomUUID(),
    session_id: sessionId,
    seq,
    parent_seq: parent,
    source_id: at.sourceId ?? null,
    turn_id: message.turnId ?? null,
    kind,
    role: message.role,
    content: message.content,
    parts: toJson(message.parts),
    reasoning: message.reasoning ?? null,
    provider_extras: toJson(message.providerExtras),
    tool_calls:
      message.toolCalls && message.toolCalls.length > 0 ? JSON.stringify(message.toolCalls) : null,
    tool_call_id: message.toolCallId ?? null,
    tool_name: message.toolName ?? null,
    provider: message.provider ?? null,
    model: message.model ?? null,
    status: message.status ?? 'complete',
    failure_kind: message.failureKind ?? null,
    is_error: message.isError || message.failureKind ? 1 : 0,
    input_tokens: usage ? usage.inputTokens : null,
    output_tokens: usage ? usage.outputTokens : null,
    usage_estimated: usage ? (usage.estimated ? 1 : 0) : null,
    cached_tokens: usage?.cachedInputTokens ?? null,
    reasoning_tokens: usage?.reasoningTokens ?? null,
    price: toJson(message.price),
    cost: message.cost ?? null,
    supersedes: message.supersedes ?? null,
    duration_ms: message.durationMs ?? null,
    reasoning_ms: message.reasoningMs ?? null,
    decided_by: message.decidedBy ?? null,
    served_model: message.servedModel ?? null,
    pinned: message.pinned ? 1 : 0,
    covers_from: message.covers?.from ?? null,
    covers_to: message.covers?.to ?? null,
    created_at: at.createdAt ?? now,
  }
}

/** links the message's attached files and adds its words to the search index */
function indexMessage(
  ctx: InsertContext,
  pk: number,
  message: NewMessage & { kind: MessageKind },
): void {
  const files = attachmentIds(message)
  if (files.length > 0) ctx.attachments.link(pk, files)
  const indexed = indexedText(message, ctx.attachments.texts(files))
  if (indexed) {
    ctx.q.insertFts.run(pk, indexed.text, indexed.toolArgs)
    if (hasNoSpaceScript(indexed.text) || hasNoSpaceScript(indexed.toolArgs))
      ctx.q.insertCjk.run(pk, indexed.text, indexed.toolArgs)
  }
}
