/**
 * What a running turn looks like on screen: its answers, tool calls and notices in order,
 * its usage and how it ended. Built by `turn-reducer.ts` from the turn's events.
 */
import type {
  ContentPart,
  DecidedBy,
  ErrorInfo,
  FailureKind,
} from '../../../src-preload/contract/dto'
import type { TurnEndReason } from '../../../src-preload/contract/events'

export type ToolStatus =
  'pending' | 'waiting' | 'running' | 'done' | 'failed' | 'denied' | 'cancelled'

export interface ToolView {
  callId: string
  /** the name the model used */
  name: string
  /** the server and the server's own name for the tool ('' server: unknown to Cairn) */
  server: string
  tool: string
  rawArguments: string
  status: ToolStatus
  decidedBy: DecidedBy | null
  result: string | null
  parts: ContentPart[] | null
  failureKind: FailureKind | null
  durationMs: number | null
  /** when it started running (ms since epoch), for the elapsed time */
  startedAt: number | null
  /** its server is waiting for the user to answer a question (an elicitation) */
  asking?: boolean
  /** the last progress it reported */
  progress?: { progress: number; total?: number; message?: string }
}

export type AnswerStatus = 'streaming' | 'complete' | 'stopped' | 'interrupted' | 'truncated'

export interface AnswerItem {
  kind: 'answer'
  key: string
  messageId: string | null
  text: string
  reasoning: string
  /** when reasoning began and how long it took (null while it goes on) */
  reasoningStartedAt: number | null
  reasoningMs: number | null
  status: AnswerStatus
  tools: ToolView[]
}

export interface NoticeItem {
  kind: 'notice'
  key: string
  level: 'info' | 'warning'
  message: string
  /** a retry notice: replaced by the next retry, removed once the answer is saved */
  retry?: { attempt: number; maxAttempts: number; until: number }
}

export type TurnItem = AnswerItem | NoticeItem

export interface TurnUsage {
  inputTokens: number
  outputTokens: number
  estimated: boolean
  /** what its priced answers cost, in US dollars; unset or null: no price was known */
  cost?: number | null
}

export interface TurnView {
  turnId: string
  sessionId: string
  running: boolean
  items: TurnItem[]
  /** the number of events applied: events with a lower `seq` are already in */
  nextSeq: number
  endReason: TurnEndReason | null
  error: ErrorInfo | null
  model: string | null
  usage: TurnUsage | null
  /** the turn's user message is stored (the stored history can show it) */
  userSaved: boolean
  /** for item keys */
  counter: number
  /**
   * A new object whenever the rows the turn shows change (an item comes or goes, a status,
   * a tool call, the end), but not when an answer's text or reasoning grows: what the
   * conversation's list depends on, while each answer's row follows its own item.
   */
  rowsKey: object
}

export function newTurn(turnId: string, sessionId: string): TurnView {
  return {
    turnId,
    sessionId,
    running: true,
    items: [],
    nextSeq: 0,
    endReason: null,
    error: null,
    model: null,
    usage: null,
    userSaved: false,
    counter: 0,
    rowsKey: {},
  }
}
