/**
 * A running turn as the screen shows it, built from its agent events. Pure functions, so
 * that the same events always give the same screen (and tests run without a browser).
 *
 * Events are applied in batches (one batch per animation frame): a batch copies the
 * view's item list once and each item it touches once, so a frame with a thousand deltas
 * costs one copy, not a thousand, and untouched items keep their identity (their rows do
 * not re-render). A batch that only streams text into an answer keeps the view's
 * `rowsKey`: the list of rows stays as it is, and only the answer's row renders again.
 */
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { FailureKind } from '../../../src-preload/contract/dto'
import type { TurnEndReason } from '../../../src-preload/contract/events'
import type {
  AnswerItem,
  AnswerStatus,
  ToolStatus,
  ToolView,
  TurnItem,
  TurnView,
} from './turn-view'

export * from './turn-view'

/**
 * The row key of a turn's n-th answer (0-based), live or stored: the live row and the
 * stored row that replaces it at the end of the turn share it, so the row is updated in
 * place, not rebuilt.
 */
export function answerKey(turnId: string, n: number): string {
  return `${turnId}:a${n}`
}

/** A batch's working copy: every object it changes is copied once. */
class Draft {
  readonly view: TurnView
  private readonly fresh = new Set<object>()
  /** something other than an answer's text or reasoning changed (see `rowsKey`) */
  reshaped = false

  constructor(view: TurnView) {
    this.view = { ...view, items: [...view.items] }
  }

  item<T extends TurnItem>(index: number): T {
    const it = this.view.items[index] as T
    if (this.fresh.has(it)) return it
    const copy = { ...it } as T
    if (copy.kind === 'answer') copy.tools = [...copy.tools]
    this.fresh.add(copy)
    this.view.items[index] = copy
    return copy
  }

  push(item: TurnItem): void {
    this.reshaped = true
    if (item.kind === 'answer') item.tools = [...item.tools]
    this.fresh.add(item)
    this.view.items.push(item)
  }

  key(prefix: string): string {
    return `${this.view.turnId}:${prefix}${this.view.counter++}`
  }

  /** the streaming answer, or a new one */
  openAnswer(): AnswerItem {
    const i = this.view.items.length - 1
    const last = this.view.items[i]
    if (last && last.kind === 'answer' && last.status === 'streaming') return this.item(i)
    const answer: AnswerItem = {
      kind: 'answer',
      // the same key as the stored row that takes its place when the turn ends
      key: answerKey(this.view.turnId, this.view.items.filter((i) => i.kind === 'answer').length),
      messageId: null,
      text: '',
      reasoning: '',
      reasoningStartedAt: null,
      reasoningMs: null,
      status: 'streaming',
      tools: [],
    }
    this.push(answer)
    return answer
  }

  /** the answer the next tool calls belong to: the last answer of the turn */
  lastAnswerIndex(): number {
    for (let i = this.view.items.length - 1; i >= 0; i--) {
      if (this.view.items[i]?.kind === 'answer') return i
    }
    return -1
  }

  /**
   * The tool a call id names: the newest call with that id that still lacks what the
   * event brings. Providers reuse ids (`call_0` in every round), so an id alone could
   * name a call of an earlier round.
   */
  tool(id: string, wants: (t: ToolView) => boolean): ToolView | null {
    for (let i = this.view.items.length - 1; i >= 0; i--) {
      const it = this.view.items[i]
      if (!it || it.kind !== 'answer') continue
      for (let j = 0; j < it.tools.length; j++) {
        const t = it.tools[j]!
        if (t.callId !== id || !wants(t)) continue
        const answer = this.item<AnswerItem>(i)
        const copy = this.fresh.has(t) ? t : { ...t }
        this.fresh.add(copy)
        answer.tools[j] = copy
        return copy
      }
    }
    return null
  }

  closeStreaming(status: AnswerStatus): void {
    const items = this.view.items
    for (let i = 0; i < items.length; i++) {
      const it = items[i]
      if (it && it.kind === 'answer' && it.status === 'streaming')
        this.item<AnswerItem>(i).status = status
    }
  }

  dropRetryNotices(): void {
    const before = this.view.items
    const after = before.filter((it) => !(it.kind === 'notice' && it.retry))
    if (after.length !== before.length) this.view.items = after
  }
}

function endReasoning(a: AnswerItem, at: number): void {
  if (a.reasoningStartedAt !== null && a.reasoningMs === null) {
    a.reasoningMs = Math.max(0, at - a.reasoningStartedAt)
  }
}

type Ev<T extends SequencedAgentEvent['type']> = Extract<SequencedAgentEvent, { type: T }>

function apply(d: Draft, e: SequencedAgentEvent): void {
  const v = d.view
  // streamed text and reasoning only change their answer's row (`openAnswer` notes a new one)
  if (e.type !== 'text_delta' && e.type !== 'reasoning_delta') d.reshaped = true
  switch (e.type) {
    case 'turn_start':
      v.model = e.model
      break
    case 'text_delta':
    case 'reasoning_delta':
      return applyDelta(d, e)
    case 'retry':
      return applyRetry(d, e)
    case 'message_saved':
      return applySaved(d, e)
    case 'tool_call':
      return addToolCall(d, e)
    case 'permission_request':
    case 'permission_decision':
    case 'elicitation_request':
    case 'elicitation_resolved':
    case 'tool_progress':
    case 'tool_result':
      return applyToToolCall(d, e)
    case 'usage':
      v.usage = {
        inputTokens: e.turnInputTokens,
        outputTokens: e.turnOutputTokens,
        estimated: (v.usage?.estimated ?? false) || e.estimated,
        ...(typeof e.turnCost === 'number' ? { cost: e.turnCost } : {}),
      }
      break
    case 'loop_warning':
      d.push({
        kind: 'notice',
        key: d.key('n'),
        level: 'warning',
        message: `The model repeated the same call to ${e.name}; it was asked to try something else.`,
      })
      break
    case 'notice':
      d.push({ kind: 'notice', key: d.key('n'), level: e.level, message: e.message })
      break
    case 'turn_end':
      v.running = false
      v.endReason = e.reason
      v.error = e.error ?? null
      d.closeStreaming(e.reason === 'aborted' ? 'stopped' : 'interrupted')
      if (e.reason !== 'error') d.dropRetryNotices()
      break
    default:
      break
  }
}

/** a piece of the answer's text (which ends its reasoning) or of its reasoning */
function applyDelta(d: Draft, e: Ev<'text_delta' | 'reasoning_delta'>): void {
  const a = d.openAnswer()
  if (e.type === 'text_delta') {
    endReasoning(a, e.at)
    a.text += e.text
  } else {
    if (a.reasoningStartedAt === null) a.reasoningStartedAt = e.at
    a.reasoning += e.text
  }
}

function applyRetry(d: Draft, e: Ev<'retry'>): void {
  const v = d.view
  // the failed attempt's text is dropped: nothing is ever shown twice
  const last = v.items[v.items.length - 1]
  if (e.discardPartial && last?.kind === 'answer' && last.status === 'streaming') v.items.pop()
  d.dropRetryNotices()
  d.push({
    kind: 'notice',
    key: d.key('r'),
    level: 'info',
    message: `Connection lost (${e.reason})`,
    retry: { attempt: e.attempt, maxAttempts: e.maxAttempts, until: e.at + e.delayMs },
  })
}

/** the user's message is stored; an answer is stored with its final status */
function applySaved(d: Draft, e: Ev<'message_saved'>): void {
  const v = d.view
  if (e.role === 'user') v.userSaved = true
  if (e.role !== 'assistant') return
  d.dropRetryNotices()
  const i = v.items.length - 1
  const last = v.items[i]
  // an answer with tool calls and no text gets a place for its calls
  const a =
    last?.kind === 'answer' && last.status === 'streaming' ? d.item<AnswerItem>(i) : d.openAnswer()
  endReasoning(a, e.at)
  a.status = e.status === 'complete' ? 'complete' : e.status
  a.messageId = e.messageId
}

function addToolCall(d: Draft, e: Ev<'tool_call'>): void {
  let i = d.lastAnswerIndex()
  if (i < 0) {
    d.openAnswer()
    i = d.lastAnswerIndex()
  }
  d.item<AnswerItem>(i).tools.push({
    callId: e.id,
    name: e.name,
    server: e.server,
    tool: e.tool,
    rawArguments: e.rawArguments,
    status: 'pending',
    decidedBy: null,
    result: null,
    parts: null,
    failureKind: null,
    durationMs: null,
    startedAt: null,
  })
}

/** what happens to a tool call: asked about, decided, asking the user, progress, result */
function applyToToolCall(
  d: Draft,
  e: Ev<
    | 'permission_request'
    | 'permission_decision'
    | 'elicitation_request'
    | 'elicitation_resolved'
    | 'tool_progress'
    | 'tool_result'
  >,
): void {
  switch (e.type) {
    case 'permission_request': {
      const t = d.tool(e.toolCallId, (t) => t.status === 'pending')
      if (t) t.status = 'waiting'
      return
    }
    case 'permission_decision': {
      const t = d.tool(e.toolCallId, (t) => t.status === 'pending' || t.status === 'waiting')
      if (!t) return
      t.decidedBy = e.by
      t.status = e.decision === 'deny' ? 'denied' : 'running'
      if (t.status === 'running') t.startedAt = e.at
      return
    }
    case 'elicitation_request':
    case 'elicitation_resolved': {
      const t = d.tool(e.toolCallId, (t) => t.result === null)
      if (t) t.asking = e.type === 'elicitation_request'
      return
    }
    case 'tool_progress': {
      const t = d.tool(e.id, (t) => t.result === null)
      if (!t) return
      t.progress = {
        progress: e.progress,
        ...(e.total !== undefined ? { total: e.total } : {}),
        ...(e.message !== undefined ? { message: e.message } : {}),
      }
      return
    }
    case 'tool_result': {
      const t = d.tool(e.id, (t) => t.result === null)
      if (!t) return
      t.result = e.content
      t.parts = e.parts ?? null
      t.failureKind = e.failureKind ?? null
      t.durationMs = e.synthetic ? null : e.durationMs
      t.status = toolStatus(e.ok, e.failureKind ?? null)
      return
    }
  }
}

/** The status a stored or streamed tool result gives its call. */
export function toolStatus(ok: boolean, failureKind: FailureKind | null): ToolStatus {
  if (ok) return 'done'
  if (failureKind === 'denied') return 'denied'
  if (failureKind === 'cancelled' || failureKind === 'stopped' || failureKind === 'interrupted')
    return 'cancelled'
  return 'failed'
}

/**
 * Applies a batch of events in order; events already applied are skipped. Returns the
 * same view when nothing changed. Stops at a gap (an event after a missing one): the
 * caller re-attaches to get the turn's events again.
 */
export function applyEvents(
  view: TurnView,
  events: readonly SequencedAgentEvent[],
): { view: TurnView; gap: boolean } {
  let d: Draft | null = null
  for (const e of events) {
    const current = d ? d.view : view
    if (e.turnId !== view.turnId || e.seq < current.nextSeq) continue
    if (e.seq > current.nextSeq) {
      if (d?.reshaped) d.view.rowsKey = {}
      return { view: d ? d.view : view, gap: true }
    }
    d ??= new Draft(view)
    apply(d, e)
    d.view.nextSeq = e.seq + 1
  }
  if (d?.reshaped) d.view.rowsKey = {}
  return { view: d ? d.view : view, gap: false }
}

/** One event (tests and simple callers). */
export function applyEvent(view: TurnView, e: SequencedAgentEvent): TurnView {
  return applyEvents(view, [e]).view
}

const REASONS: Partial<Record<TurnEndReason, string>> = {
  aborted: 'Stopped.',
  max_iterations: 'Stopped: the limit of model calls for one turn was reached.',
  max_tool_executions: 'Stopped: the limit of tool runs for one turn was reached.',
  deadline: 'Deadline reached: the turn ran out of time.',
  loop: 'Stopped: the model kept repeating the same tool call.',
  tool_failure: 'Stopped: a tool failed (stop-on-failure is on).',
  denied: 'Stopped: a tool call was denied (stop-on-denial is on).',
}

/** Why a turn ended, in words, or null when it simply completed. */
export function endMessage(view: Pick<TurnView, 'endReason' | 'error'>): string | null {
  if (view.error) return view.error.message
  return view.endReason ? (REASONS[view.endReason] ?? null) : null
}
