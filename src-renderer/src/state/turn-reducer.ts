/**
 * A running turn as the screen shows it, built from its agent events. Pure functions, so
 * that the same events always give the same screen (and tests run without a browser).
 */
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { ErrorInfo, FailureKind } from '../../../src-preload/contract/dto'
import type { TurnEndReason } from '../../../src-preload/contract/events'

export type ToolStatus =
  'pending' | 'waiting' | 'running' | 'done' | 'failed' | 'denied' | 'cancelled'

export type TurnItem =
  | {
      kind: 'assistant'
      text: string
      reasoning: string
      open: boolean
      status: 'streaming' | 'complete' | 'stopped' | 'interrupted'
    }
  | {
      kind: 'tool'
      id: string
      name: string
      server: string
      tool: string
      args: Record<string, unknown> | null
      rawArguments: string
      status: ToolStatus
      result: string | null
      failureKind: FailureKind | null
    }
  | { kind: 'notice'; level: 'info' | 'warning'; message: string }

export interface TurnView {
  turnId: string
  sessionId: string
  running: boolean
  items: TurnItem[]
  /** the number of events applied: events with a lower `seq` are already in */
  nextSeq: number
  endReason: TurnEndReason | null
  error: ErrorInfo | null
}

export function newTurn(turnId: string, sessionId: string): TurnView {
  return { turnId, sessionId, running: true, items: [], nextSeq: 0, endReason: null, error: null }
}

function openAssistant(items: TurnItem[]): Extract<TurnItem, { kind: 'assistant' }> {
  const last = items[items.length - 1]
  if (last && last.kind === 'assistant' && last.open) return last
  const item: Extract<TurnItem, { kind: 'assistant' }> = {
    kind: 'assistant',
    text: '',
    reasoning: '',
    open: true,
    status: 'streaming',
  }
  items.push(item)
  return item
}

function toolById(items: TurnItem[], id: string): Extract<TurnItem, { kind: 'tool' }> | undefined {
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]
    if (it && it.kind === 'tool' && it.id === id) return it
  }
  return undefined
}

/** Applies one event; returns a new view (items copied shallowly) or the same one if it was already applied. */
export function applyEvent(view: TurnView, e: SequencedAgentEvent): TurnView {
  if (e.seq < view.nextSeq || e.turnId !== view.turnId) return view
  const items = view.items.map((i) => ({ ...i }))
  const next: TurnView = { ...view, items, nextSeq: e.seq + 1 }
  switch (e.type) {
    case 'text_delta':
      openAssistant(items).text += e.text
      break
    case 'reasoning_delta':
      openAssistant(items).reasoning += e.text
      break
    case 'retry': {
      // the failed attempt's text is dropped: nothing is ever shown twice
      const last = items[items.length - 1]
      if (e.discardPartial && last && last.kind === 'assistant' && last.open) items.pop()
      items.push({
        kind: 'notice',
        level: 'info',
        message: `The connection to the model dropped (${e.reason}); retrying, attempt ${e.attempt} of ${e.maxAttempts}…`,
      })
      break
    }
    case 'message_saved':
      if (e.role === 'assistant') {
        const last = items[items.length - 1]
        if (last && last.kind === 'assistant' && last.open) {
          last.open = false
          last.status = e.status
        }
      }
      break
    case 'tool_call':
      items.push({
        kind: 'tool',
        id: e.id,
        name: e.name,
        server: e.server,
        tool: e.tool,
        args: e.arguments,
        rawArguments: e.rawArguments,
        status: 'pending',
        result: null,
        failureKind: null,
      })
      break
    case 'permission_request': {
      const t = toolById(items, e.toolCallId)
      if (t) t.status = 'waiting'
      break
    }
    case 'permission_decision': {
      const t = toolById(items, e.toolCallId)
      if (t) t.status = e.decision === 'deny' ? 'denied' : 'running'
      break
    }
    case 'tool_result': {
      const t = toolById(items, e.id)
      if (t) {
        t.result = e.content
        t.failureKind = e.failureKind ?? null
        t.status = e.ok
          ? 'done'
          : e.failureKind === 'denied'
            ? 'denied'
            : e.failureKind === 'cancelled'
              ? 'cancelled'
              : 'failed'
      }
      break
    }
    case 'loop_warning':
      items.push({
        kind: 'notice',
        level: 'warning',
        message: `The model called ${e.name} with the same arguments ${e.count} times; it was told it is repeating itself.`,
      })
      break
    case 'notice':
      items.push({ kind: 'notice', level: e.level, message: e.message })
      break
    case 'turn_end':
      next.running = false
      next.endReason = e.reason
      next.error = e.error ?? null
      for (const it of items) {
        if (it.kind === 'assistant' && it.open) {
          it.open = false
          it.status = e.reason === 'aborted' ? 'stopped' : 'interrupted'
        }
      }
      break
    default:
      break
  }
  return next
}

export function applyEvents(view: TurnView, events: readonly SequencedAgentEvent[]): TurnView {
  return events.reduce(applyEvent, view)
}

const REASONS: Partial<Record<TurnEndReason, string>> = {
  aborted: 'Stopped.',
  max_iterations: 'Stopped: the limit of model calls for one turn was reached.',
  max_tool_executions: 'Stopped: the limit of tool runs for one turn was reached.',
  deadline: 'Stopped: the turn ran out of time.',
  loop: 'Stopped: the model kept repeating the same tool call.',
  tool_failure: 'Stopped: a tool failed (stop-on-failure is on).',
  denied: 'Stopped: a tool call was denied (stop-on-denial is on).',
}

export function endMessage(view: Pick<TurnView, 'endReason' | 'error'>): string | null {
  if (view.error) return view.error.message
  return view.endReason ? (REASONS[view.endReason] ?? null) : null
}
