/**
 * Cairn's own JSON export (`format: 'cairn-session'`, adapters/sqlite/export.ts): the
 * session and every message of its tree, each with its seq and the seq it follows, and the
 * open branch (`session.leafSeq`). Read back, it gives the same chat: the same messages in
 * the same tree, with their tool calls and results, reasoning, models, usage and
 * summaries, and the same branch open.
 */
import type { NewMessage } from '../../../src-preload/contract/dto'
import {
  isRecord,
  MalformedConversation,
  str,
  type ImportedConversation,
  type ImportedMessage,
} from './conversation'

type Rec = Record<string, unknown>

const KEPT = [
  'kind',
  'turnId',
  'parts',
  'reasoning',
  'providerExtras',
  'toolCalls',
  'toolCallId',
  'toolName',
  'provider',
  'model',
  'status',
  'failureKind',
  'isError',
  'usage',
  'price',
  'cost',
  'durationMs',
  'reasoningMs',
  'decidedBy',
  'pinned',
  'servedModel',
] as const

function message(m: Rec, seqIds: Map<number, string>): ImportedMessage {
  const role = str(m.role)
  if (role !== 'user' && role !== 'assistant' && role !== 'tool' && role !== 'system')
    throw new MalformedConversation(`its message ${String(m.seq)} has no role Cairn knows`)
  const kept: Rec = { role, content: str(m.content) ?? '' }
  for (const k of KEPT) if (m[k] !== undefined && m[k] !== null) kept[k] = m[k]
  const parent = typeof m.parentSeq === 'number' ? (seqIds.get(m.parentSeq) ?? null) : null
  const covers = isRecord(m.covers) ? m.covers : null
  const from = covers && typeof covers.from === 'number' ? seqIds.get(covers.from) : undefined
  const to = covers && typeof covers.to === 'number' ? seqIds.get(covers.to) : undefined
  return {
    sourceId: seqIds.get(m.seq as number)!,
    parentSourceId: parent,
    createdAt: typeof m.createdAt === 'number' ? m.createdAt : null,
    message: kept as unknown as NewMessage,
    ...(from && to ? { covers: { from, to } } : {}),
  }
}

export function readCairnExport(v: Rec): ImportedConversation {
  const session = isRecord(v.session) ? v.session : null
  const id = session ? str(session.id) : null
  if (!session || !id) throw new MalformedConversation('it has no session')
  if (!Array.isArray(v.messages)) throw new MalformedConversation('its messages are missing')
  const list = v.messages.filter(isRecord)
  if (list.length !== v.messages.length)
    throw new MalformedConversation('one of its messages is not an object')
  const seqIds = new Map<number, string>()
  for (const m of list) {
    if (typeof m.seq !== 'number' || !str(m.id))
      throw new MalformedConversation('one of its messages has no number or id')
    seqIds.set(m.seq, str(m.id)!)
  }
  // stored in seq order, a message's parent always comes before it
  const messages = [...list].sort((a, b) => (a.seq as number) - (b.seq as number))
  const leaf = typeof session.leafSeq === 'number' ? (seqIds.get(session.leafSeq) ?? null) : null
  return {
    source: 'cairn',
    sourceId: id,
    title: str(session.title) ?? '',
    createdAt: typeof session.createdAt === 'number' ? session.createdAt : null,
    updatedAt: typeof session.updatedAt === 'number' ? session.updatedAt : null,
    model: str(session.model),
    provider: str(session.provider),
    systemPrompt: str(session.systemPrompt),
    messages: messages.map((m) => message(m, seqIds)),
    leafSourceId: leaf,
  }
}

/** what a value of an export is: one of the formats, or malformed (said why) */
export function isCairnExport(v: unknown): v is Rec {
  return isRecord(v) && v.format === 'cairn-session'
}
