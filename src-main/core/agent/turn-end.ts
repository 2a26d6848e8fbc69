import type { ErrorInfo, Usage } from '../../../src-preload/contract/dto'
import type { TurnEndReason } from '../../../src-preload/contract/events'
import { costOf, roundCost } from '../llm/pricing'
import { storageFailure } from './save-failure'
import { danglingKindFor, danglingText } from './synthetic'
import type { TurnState } from './turn-state'

export interface TurnOutcome {
  reason: TurnEndReason
  error?: ErrorInfo
  usage: { inputTokens: number; outputTokens: number }
  llmCalls: number
  toolExecutions: number
}

/** What a turn used: its LLM calls and their tokens, each call's said in a `usage` event. */
export class TurnTally {
  readonly usage = { inputTokens: 0, outputTokens: 0 }
  /** what the turn's priced calls cost, in US dollars; null while none had a price */
  cost: number | null = null
  llmCalls = 0

  constructor(private readonly ctx: TurnState) {}

  /**
   * adds one call's usage to the turn's and says so in a `usage` event; answers what the
   * call cost at the model's price (null: no price known)
   */
  count(u: Usage, timeToFirstTokenMs: number | null, rate: number | null): number | null {
    this.usage.inputTokens += u.inputTokens
    this.usage.outputTokens += u.outputTokens
    const price = this.ctx.deps.llm.price ?? null
    const cost = price ? costOf(u, price) : null
    if (cost !== null) this.cost = roundCost((this.cost ?? 0) + cost)
    this.ctx.emit({
      type: 'usage',
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      estimated: u.estimated,
      turnInputTokens: this.usage.inputTokens,
      turnOutputTokens: this.usage.outputTokens,
      cost,
      turnCost: this.cost,
      timeToFirstTokenMs,
      tokensPerSecond: rate,
    })
    return cost
  }
}

/**
 * The one way out of a turn: answers the tool calls left open, emits exactly one
 * `turn_end` and says what the turn used. Called again, it returns the first outcome.
 */
export function turnEnder(
  ctx: TurnState,
  tally: TurnTally,
): (reason: TurnEndReason, error?: ErrorInfo) => TurnOutcome {
  let ended: TurnOutcome | null = null
  return (reason, error) => (ended ??= endTurn(ctx, tally, reason, error))
}

function endTurn(
  ctx: TurnState,
  tally: TurnTally,
  reason: TurnEndReason,
  error: ErrorInfo | undefined,
): TurnOutcome {
  try {
    answerDangling(ctx, reason)
  } catch (e) {
    reason = 'error'
    error ??= storageFailure(e, true) ?? {
      code: 'storage',
      message: `Could not save the end of the turn: ${String(e)}`,
    }
  }
  ctx.emit({ type: 'turn_end', reason, ...(error ? { error } : {}) })
  return {
    reason,
    ...(error ? { error } : {}),
    usage: tally.usage,
    llmCalls: tally.llmCalls,
    toolExecutions: ctx.toolExecutions,
  }
}

/** Every tool call of the last assistant message gets exactly one result. */
function answerDangling(ctx: TurnState, reason: TurnEndReason): void {
  const h = ctx.history
  let idx = h.length - 1
  while (idx >= 0 && h[idx]?.role === 'tool') idx--
  const assistant = h[idx]
  if (!assistant || assistant.role !== 'assistant' || !assistant.toolCalls) return
  const answered = new Set(h.slice(idx + 1).map((m) => m.toolCallId))
  const kind = danglingKindFor(reason)
  for (const call of assistant.toolCalls) {
    if (answered.has(call.id)) continue
    const content = danglingText(kind, call.name, reason, ctx.decisions.has(call.id))
    ctx.save({
      role: 'tool',
      content,
      toolCallId: call.id,
      toolName: call.name,
      status: 'complete',
      failureKind: kind,
      durationMs: null,
      decidedBy: ctx.decisions.get(call.id) ?? null,
    })
    ctx.emit({
      type: 'tool_result',
      id: call.id,
      ok: false,
      content,
      durationMs: 0,
      synthetic: true,
      failureKind: kind,
    })
  }
}
