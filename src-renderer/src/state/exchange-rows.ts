/**
 * The rows of one exchange of the stored history: the user's message, each answer (tool
 * results folded into the calls they answer, by position), the notices and summaries
 * among them, and under the last answer its footer.
 */
import type {
  AttachmentPart,
  ContentPart,
  DecidedBy,
  FailureKind,
  StoredMessage,
} from '../../../src-preload/contract/dto'
import type { KeptNotice } from './live-types'
import {
  isUser,
  type AnswerView,
  type Exchange,
  type ExchangeFooter,
  type Row,
  type Versions,
} from './rows'
import { answerKey, toolStatus, type TurnUsage } from './turn-reducer'

/** Tool results folded into their calls, by position. */
export function storedAnswer(
  assistant: StoredMessage,
  results: readonly StoredMessage[],
): AnswerView {
  const calls = assistant.toolCalls ?? []
  const answered: (StoredMessage | undefined)[] = new Array(calls.length)
  for (const r of results) {
    let i = calls.findIndex((c, k) => !answered[k] && c.id === r.toolCallId)
    if (i < 0) i = answered.findIndex((a, k) => !a && k < calls.length)
    if (i >= 0 && i < calls.length) answered[i] = r
  }
  return {
    text: assistant.content,
    reasoning: assistant.reasoning ?? '',
    reasoningMs: assistant.reasoningMs,
    reasoningStartedAt: null,
    status: assistant.status,
    tools: calls.map((c, i) => {
      const r = answered[i]
      const { server, tool } = splitToolName(c.name)
      return {
        callId: c.id,
        name: c.name,
        server,
        tool,
        rawArguments: c.arguments,
        status: r ? toolStatus(!r.isError, r.failureKind) : 'cancelled',
        decidedBy: (r?.decidedBy ?? null) as DecidedBy | null,
        result: r ? r.content : null,
        parts: (r?.parts ?? null) as ContentPart[] | null,
        failureKind: (r?.failureKind ?? null) as FailureKind | null,
        durationMs: r?.durationMs ?? null,
        startedAt: null,
      }
    }),
  }
}

/** Built-in tools (server `cairn`) keep their own names; an MCP tool is `<server>__<tool>`. */
export function splitToolName(name: string): { server: string; tool: string } {
  const at = name.indexOf('__')
  if (at <= 0) return { server: 'cairn', tool: name }
  return { server: name.slice(0, at), tool: name.slice(at + 2) }
}

function addUsage(total: TurnUsage | null, m: StoredMessage): TurnUsage | null {
  if (!m.usage) return total
  return {
    inputTokens: (total?.inputTokens ?? 0) + m.usage.inputTokens,
    outputTokens: (total?.outputTokens ?? 0) + m.usage.outputTokens,
    estimated: (total?.estimated ?? false) || m.usage.estimated,
    cost:
      typeof m.cost === 'number'
        ? Math.round(((total?.cost ?? 0) + m.cost) * 1e8) / 1e8
        : (total?.cost ?? null),
  }
}

type AnswerRow = Extract<Row, { kind: 'answer' }>
type UserRow = Extract<Row, { kind: 'user' }>

/** What an exchange's rows are made with, and what its footer gathers on the way. */
/** How an exchange's rows are made. */
export interface ExchangeOptions {
  /** the versions at a message (null: none, or they cannot be switched now) */
  versionsOf(seq: number): Versions | null
  /** nothing runs: every message can be edited, every answer regenerated */
  canChange: boolean
  /** the last exchange of the branch (Continue is offered there) */
  newest: boolean
  liveTurnId: string | null
  notices: Readonly<Record<string, KeptNotice[]>>
}

interface ExchangeBuild extends ExchangeOptions {
  rows: Row[]
  x: Exchange
  answers: AnswerRow[]
  userRow: UserRow | null
  usage: TurnUsage | null
  turnId: string | null
  servedModel: string | null
  lastAssistant: StoredMessage | null
  /** answers so far per turn (their row keys) */
  answersOfTurn: Map<string, number>
}

export function exchangeRows(rows: Row[], x: Exchange, opts: ExchangeOptions): void {
  const { liveTurnId } = opts
  const b: ExchangeBuild = {
    ...opts,
    rows,
    x,
    answers: [],
    userRow: null,
    usage: null,
    turnId: null,
    servedModel: null,
    lastAssistant: null,
    answersOfTurn: new Map(),
  }
  const ms = x.messages
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!
    if (liveTurnId !== null && m.turnId === liveTurnId && !isUser(m)) continue
    if (m.kind === 'notice') {
      rows.push({ kind: 'notice', key: m.id, level: 'warning', message: m.content })
    } else if (m.kind === 'summary') {
      rows.push(summaryRow(m))
    } else if (isUser(m)) {
      b.userRow = userRow(b, m)
      rows.push(b.userRow)
      keptNoticesAfter(b, m.turnId, 0)
    } else if (m.role === 'assistant') {
      let j = i + 1
      while (j < ms.length && ms[j]!.role === 'tool') j++
      addAnswer(b, m, ms.slice(i + 1, j))
      i = j - 1
    }
    // a tool result without its call (a page boundary inside a long turn) is not shown alone
  }
  const last = b.answers[b.answers.length - 1]
  if (last && !(liveTurnId !== null && x.messages.some((m) => m.turnId === liveTurnId))) {
    last.footer = footerOf(b)
  }
}

function summaryRow(m: StoredMessage): Row {
  return {
    kind: 'summary',
    key: m.id,
    text: m.content,
    summaryId: m.covers ? m.id : null,
    covered: 0,
    expanded: false,
  }
}

function userRow(b: ExchangeBuild, m: StoredMessage): UserRow {
  return {
    kind: 'user',
    key: m.id,
    messageId: m.id,
    text: m.content,
    pending: false,
    canEdit: b.canChange && b.liveTurnId === null,
    versions: b.versionsOf(m.seq),
    ...(m.pinned ? { pinned: true } : {}),
    ...attachedOf(m),
  }
}

/** the notices a turn's live view showed after its n-th answer */
function keptNoticesAfter(b: ExchangeBuild, turnId: string | null, n: number): void {
  for (const k of (turnId ? b.notices[turnId] : undefined) ?? []) {
    if (k.after === n)
      b.rows.push({ kind: 'notice', key: k.key, level: k.level, message: k.message })
  }
}

/** an assistant message and its tool results: an answer row */
function addAnswer(b: ExchangeBuild, m: StoredMessage, results: StoredMessage[]): void {
  b.usage = addUsage(b.usage, m)
  b.servedModel = m.servedModel ?? b.servedModel
  b.lastAssistant = m
  b.turnId = m.turnId ?? b.turnId
  const n = m.turnId ? (b.answersOfTurn.get(m.turnId) ?? 0) : 0
  if (m.turnId) b.answersOfTurn.set(m.turnId, n + 1)
  const row: AnswerRow = {
    kind: 'answer',
    key: m.turnId ? answerKey(m.turnId, n) : m.id,
    answer: storedAnswer(m, results),
    live: false,
    model: m.model,
    footer: null,
  }
  b.answers.push(row)
  b.rows.push(row)
  keptNoticesAfter(b, m.turnId, n + 1)
}

function footerOf(b: ExchangeBuild): ExchangeFooter {
  const { x, lastAssistant } = b
  const firstAnswer = x.user ? x.messages.find((m) => m.parentSeq === x.user!.seq) : undefined
  return {
    usage: b.usage,
    markdown: b.answers
      .map((a) => a.answer.text)
      .filter(Boolean)
      .join('\n\n'),
    canRegenerate: b.canChange && x.user !== null,
    continuable: b.newest,
    userMessageId: x.user?.id ?? null,
    userText: x.user?.content ?? '',
    // the answers to this message: the versions at its first
    versions: firstAnswer ? b.versionsOf(firstAnswer.seq) : null,
    turnId: b.turnId,
    servedModel: b.servedModel,
    ...(lastAssistant
      ? { keep: { messageId: lastAssistant.id, pinned: lastAssistant.pinned === true } }
      : {}),
  }
}

/**
 * the resources a user message carries, named as the chips show them, and what of them was
 * left out (the only text parts of a user message are those notes)
 */
function attachedOf(m: StoredMessage): {
  attached?: { uri: string; name: string }[]
  attachedCut?: string[]
  files?: AttachmentPart[]
} {
  const parts = m.parts ?? []
  const links = parts.flatMap((p) =>
    p.type === 'resource_link' ? [{ uri: p.uri, name: p.name ?? p.uri }] : [],
  )
  const cut = parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
  const files = parts.filter((p): p is AttachmentPart => p.type === 'attachment')
  return {
    ...(links.length > 0 ? { attached: links } : {}),
    ...(cut.length > 0 ? { attachedCut: cut } : {}),
    ...(files.length > 0 ? { files } : {}),
  }
}
