/**
 * What the conversation shows, as rows: the stored messages (tool results folded into the
 * calls they answer), then the live turn. Pure functions of their inputs.
 *
 * - A tool result belongs to the call at its position: the assistant message just before
 *   the run of tool messages it is in, and the first call there with its id that is not
 *   answered yet. Providers reuse ids (`call_0` in every turn), so an id alone could show
 *   another call's result.
 * - The stored history is append-only: a user message that `supersedes` an earlier one
 *   (regenerate, edit, retry) makes that earlier exchange an older version. The newest
 *   version is shown in its place, and the user can flip between the versions.
 */
import type {
  ContentPart,
  DecidedBy,
  FailureKind,
  StoredMessage,
} from '../../../src-preload/contract/dto'
import type { KeptNotice, Outbox, TurnEnd } from './live-types'
import { placeSummaries } from './summary-placement'
import {
  answerKey,
  toolStatus,
  type AnswerStatus,
  type ToolView,
  type TurnItem,
  type TurnUsage,
  type TurnView,
} from './turn-reducer'

export interface AnswerView {
  text: string
  reasoning: string
  reasoningMs: number | null
  reasoningStartedAt: number | null
  status: AnswerStatus
  tools: ToolView[]
}

export interface Versions {
  /** identifies the slot the versions share (the newest version's user message id) */
  slot: string
  /** the version shown, 0-based, and how many there are */
  index: number
  count: number
}

/** Under the last answer of an exchange. */
export interface ExchangeFooter {
  usage: TurnUsage | null
  /** the whole answer of the exchange as Markdown, for Copy */
  markdown: string
  /** the exchange is the newest and nothing runs: it can be regenerated */
  canRegenerate: boolean
  /** the user message the exchange answers (what Regenerate and Retry replace) */
  userMessageId: string | null
  userText: string
  versions: Versions | null
  /** the turn that wrote the answer (what the turn inspector shows) */
  turnId: string | null
  /** the model the server says answered, when it is not the one asked for */
  servedModel?: string | null
  /** the exchange's last answer message, which "Keep in context" pins, and whether it is */
  keep?: { messageId: string; pinned: boolean }
}

export type Row =
  | {
      kind: 'user'
      key: string
      messageId: string | null
      text: string
      /** shown before the host has it */
      pending: boolean
      /** the newest user message, when nothing runs: it can be edited and resent */
      canEdit: boolean
      /** kept in context: never summarized or left out */
      pinned?: boolean
      versions: Versions | null
      /** resources attached with `@` (their links; the text went to the model) */
      attached?: { uri: string; name: string }[]
      /** what the message's total left out of its attachments, in words with its size */
      attachedCut?: string[]
    }
  | {
      kind: 'answer'
      key: string
      answer: AnswerView
      live: boolean
      model: string | null
      footer: ExchangeFooter | null
    }
  | {
      kind: 'notice'
      key: string
      level: 'info' | 'warning'
      message: string
      until?: number
      attempt?: string
    }
  | {
      kind: 'summary'
      key: string
      text: string
      /** the summary message, when it records what it stands in for (it can be undone) */
      summaryId: string | null
      /** the messages it stands in for, among those loaded */
      covered: number
      /** the covered messages are shown below it */
      expanded: boolean
    }
  | {
      kind: 'end'
      key: string
      end: TurnEnd
      /** what Retry resends */
      retry: { messageId: string; text: string } | null
    }

interface Exchange {
  user: StoredMessage | null
  messages: StoredMessage[]
}

function isUser(m: StoredMessage): boolean {
  return m.role === 'user' && m.kind === 'message'
}

function exchanges(messages: readonly StoredMessage[]): Exchange[] {
  const out: Exchange[] = []
  let current: Exchange | null = null
  for (const m of messages) {
    if (isUser(m) || !current) {
      current = { user: isUser(m) ? m : null, messages: [] }
      out.push(current)
    }
    current.messages.push(m)
  }
  return out
}

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
  }
}

export interface StoredRowsInput {
  messages: readonly StoredMessage[]
  /** the live turn: its stored messages (but the user's) are shown from its events */
  liveTurnId: string | null
  /** a regenerate or edit on its way hides the exchange it replaces */
  hiding: string | null
  /** slot → the version picked (absent: the newest) */
  picked: Readonly<Record<string, number>>
  /** a turn runs or a message is on its way: nothing can be regenerated or edited */
  busy: boolean
  /** notices ended turns showed, by turn */
  notices?: Readonly<Record<string, KeptNotice[]>>
  /** summaries whose covered messages are shown (see `summary-placement.ts`) */
  expandedSummaries?: ReadonlySet<string>
}

/** The notices of a turn's live view, with their place among its answers. */
export function keptNotices(turn: TurnView): KeptNotice[] {
  const out: KeptNotice[] = []
  let answers = 0
  for (const it of turn.items) {
    if (it.kind === 'answer') answers++
    else if (!it.retry)
      out.push({ key: it.key, level: it.level, message: it.message, after: answers })
  }
  return out
}

interface VersionChain {
  /** the slot the versions share (the newest version's user message id) */
  slot: string
  /** oldest first; the last is the newest */
  chain: Exchange[]
}

/** The exchanges shown, each with the earlier versions it replaced. */
function versionChains(messages: readonly StoredMessage[], hiding: string | null): VersionChain[] {
  const all = exchanges(messages)
  const byUserSeq = new Map<number, Exchange>()
  for (const x of all) if (x.user) byUserSeq.set(x.user.seq, x)
  const superseded = new Set<Exchange>()
  for (const x of all) {
    const prev = x.user?.supersedes != null ? byUserSeq.get(x.user.supersedes) : undefined
    if (prev) superseded.add(prev)
  }
  const shown = all.filter((x) => !superseded.has(x) && x.user?.id !== hiding)
  return shown.map((newest, n) => {
    const chain: Exchange[] = [newest]
    for (let x = newest; x.user?.supersedes != null;) {
      const prev = byUserSeq.get(x.user.supersedes)
      if (!prev || chain.includes(prev)) break
      chain.unshift(prev)
      x = prev
    }
    return { slot: newest.user?.id ?? `x${n}`, chain }
  })
}

/**
 * The version that holds a stored message, when it is an earlier one (what `picked` must
 * say to show it); null when the message is in a newest version or not there at all.
 */
export function earlierVersionOf(
  messages: readonly StoredMessage[],
  messageId: string,
): { slot: string; index: number } | null {
  for (const { slot, chain } of versionChains(messages, null)) {
    const index = chain.findIndex((x) => x.messages.some((m) => m.id === messageId))
    if (index >= 0) return index < chain.length - 1 ? { slot, index } : null
  }
  return null
}

const NONE_EXPANDED: ReadonlySet<string> = new Set()

/** Rows of the stored messages. */
export function storedRows(input: StoredRowsInput): Row[] {
  const placed = placeSummaries(input.messages, input.expandedSummaries ?? NONE_EXPANDED)
  const chains = versionChains(placed.messages, input.hiding)
  const rows: Row[] = []
  chains.forEach(({ slot, chain }, n) => {
    const picked = input.picked[slot]
    const index = picked !== undefined && picked < chain.length ? picked : chain.length - 1
    const versions = chain.length > 1 ? { slot, index, count: chain.length } : null
    const last = n === chains.length - 1
    exchangeRows(
      rows,
      chain[index]!,
      versions,
      last && !input.busy && index === chain.length - 1,
      input.liveTurnId,
      input.notices ?? {},
    )
  })
  if (placed.info.size === 0) return rows
  return rows.map((r) => {
    const info = r.kind === 'summary' ? placed.info.get(r.key) : undefined
    return info && r.kind === 'summary' ? { ...r, ...info } : r
  })
  return rows
}

function exchangeRows(
  rows: Row[],
  x: Exchange,
  versions: Versions | null,
  newest: boolean,
  liveTurnId: string | null,
  notices: Readonly<Record<string, KeptNotice[]>>,
): void {
  const answers: Extract<Row, { kind: 'answer' }>[] = []
  const keptAfter = (turnId: string | null, n: number): void => {
    for (const k of (turnId ? notices[turnId] : undefined) ?? []) {
      if (k.after === n)
        rows.push({ kind: 'notice', key: k.key, level: k.level, message: k.message })
    }
  }
  let userRow: Extract<Row, { kind: 'user' }> | null = null
  let usage: TurnUsage | null = null
  let answerTurnId: string | null = null
  let servedModel: string | null = null
  let lastAssistant: StoredMessage | null = null
  const answersOfTurn = new Map<string, number>()
  const ms = x.messages
  for (let i = 0; i < ms.length; i++) {
    const m = ms[i]!
    if (liveTurnId !== null && m.turnId === liveTurnId && !isUser(m)) continue
    if (m.kind === 'notice') {
      rows.push({ kind: 'notice', key: m.id, level: 'warning', message: m.content })
    } else if (m.kind === 'summary') {
      rows.push({
        kind: 'summary',
        key: m.id,
        text: m.content,
        summaryId: m.covers ? m.id : null,
        covered: 0,
        expanded: false,
      })
    } else if (isUser(m)) {
      userRow = {
        kind: 'user',
        key: m.id,
        messageId: m.id,
        text: m.content,
        pending: false,
        canEdit: newest && liveTurnId === null,
        versions,
        ...(m.pinned ? { pinned: true } : {}),
        ...attachedOf(m),
      }
      rows.push(userRow)
      keptAfter(m.turnId, 0)
    } else if (m.role === 'assistant') {
      let j = i + 1
      while (j < ms.length && ms[j]!.role === 'tool') j++
      usage = addUsage(usage, m)
      servedModel = m.servedModel ?? servedModel
      lastAssistant = m
      answerTurnId = m.turnId ?? answerTurnId
      const n = m.turnId ? (answersOfTurn.get(m.turnId) ?? 0) : 0
      if (m.turnId) answersOfTurn.set(m.turnId, n + 1)
      const row: Extract<Row, { kind: 'answer' }> = {
        kind: 'answer',
        key: m.turnId ? answerKey(m.turnId, n) : m.id,
        answer: storedAnswer(m, ms.slice(i + 1, j)),
        live: false,
        model: m.model,
        footer: null,
      }
      answers.push(row)
      rows.push(row)
      keptAfter(m.turnId, n + 1)
      i = j - 1
    }
    // a tool result without its call (a page boundary inside a long turn) is not shown alone
  }
  const lastAnswer = answers[answers.length - 1]
  if (lastAnswer && !(liveTurnId !== null && x.messages.some((m) => m.turnId === liveTurnId))) {
    lastAnswer.footer = {
      usage,
      markdown: answers
        .map((a) => a.answer.text)
        .filter(Boolean)
        .join('\n\n'),
      canRegenerate: newest && x.user !== null,
      userMessageId: x.user?.id ?? null,
      userText: x.user?.content ?? '',
      versions,
      turnId: answerTurnId,
      servedModel,
      ...(lastAssistant
        ? { keep: { messageId: lastAssistant.id, pinned: lastAssistant.pinned === true } }
        : {}),
    }
    // the versions switch is shown once: under the answer when there is one
    if (userRow) userRow.versions = null
  }
}

export interface LiveRowsInput {
  turn: TurnView | null
  outbox: Outbox | null
  ended: TurnEnd | null
  /** the stored user message the live turn or the outbox answers, when stored */
  storedUser: StoredMessage | null
  /** the newest stored user message (what Retry resends when the turn failed) */
  lastUser: StoredMessage | null
}

/** Rows of what is on its way: the outbox, the live turn, why the last turn ended. */
export function liveRows(input: LiveRowsInput): Row[] {
  const rows: Row[] = []
  const { turn, outbox } = input
  if (outbox && !input.storedUser) {
    rows.push({
      kind: 'user',
      key: `outbox:${outbox.turnId ?? 'sending'}`,
      messageId: null,
      text: outbox.text,
      pending: true,
      canEdit: false,
      versions: null,
    })
  }
  if (turn) {
    const answers = turn.items.filter(
      (i): i is Extract<TurnItem, { kind: 'answer' }> => i.kind === 'answer',
    )
    const lastAnswer = answers[answers.length - 1]
    for (const it of turn.items) {
      if (it.kind === 'notice') {
        rows.push({
          kind: 'notice',
          key: it.key,
          level: it.level,
          message: it.message,
          ...(it.retry
            ? { until: it.retry.until, attempt: `${it.retry.attempt}/${it.retry.maxAttempts}` }
            : {}),
        })
        continue
      }
      rows.push({
        kind: 'answer',
        key: it.key,
        answer: it,
        live: turn.running,
        model: turn.model,
        footer:
          !turn.running && it === lastAnswer
            ? {
                usage: turn.usage,
                markdown: answers
                  .map((a) => a.text)
                  .filter(Boolean)
                  .join('\n\n'),
                canRegenerate: input.storedUser !== null,
                userMessageId: input.storedUser?.id ?? null,
                userText: input.storedUser?.content ?? '',
                versions: null,
                turnId: turn.turnId,
              }
            : null,
      })
    }
  }
  if (input.ended && !turn?.running) {
    const retryFrom = input.storedUser ?? input.lastUser
    rows.push({
      kind: 'end',
      key: `end:${input.ended.turnId}`,
      end: input.ended,
      retry: retryFrom ? { messageId: retryFrom.id, text: retryFrom.content } : null,
    })
  }
  return rows
}

/**
 * the resources a user message carries, named as the chips show them, and what of them was
 * left out (the only text parts of a user message are those notes)
 */
function attachedOf(m: StoredMessage): {
  attached?: { uri: string; name: string }[]
  attachedCut?: string[]
} {
  const parts = m.parts ?? []
  const links = parts.flatMap((p) =>
    p.type === 'resource_link' ? [{ uri: p.uri, name: p.name ?? p.uri }] : [],
  )
  const cut = parts.flatMap((p) => (p.type === 'text' ? [p.text] : []))
  return {
    ...(links.length > 0 ? { attached: links } : {}),
    ...(cut.length > 0 ? { attachedCut: cut } : {}),
  }
}
