import type { ModelPrice } from '../../../src-preload/contract/usage'
import type { CompletionResult } from '../llm/types'
import type { ErrorInfo, StoredMessage } from '../../../src-preload/contract/dto'
import type { TurnEndReason } from '../../../src-preload/contract/events'
import { messageOf } from '../errors'
import { tokensPerSecond } from '../llm/throughput'
import { AbortReason, abortKindOf, LlmError } from '../llm/types'
import type { ToolDescriptor } from '../ports'
import { callModel } from './model-call'
import { createTurnState, type TurnState, type TurnDeps, type TurnRequest } from './turn-state'
import { turnEnder, TurnTally, type TurnOutcome } from './turn-end'
import { runToolRound } from './tool-round'
import { storageFailure } from './save-failure'
import { storeUserMessage } from './user-message'
import { recentToolNames, ToolCatalog } from './tool-catalog'

export type { TurnOutcome } from './turn-end'

/** how a turn ends: the reason, and the error when it failed */
type Ending = [TurnEndReason, ErrorInfo?]

/**
 * Runs one turn, in steps: open it (the stored history and the user's message), run rounds
 * of one LLM call and its tool calls until the model answers without tool calls or a stop
 * condition fires, and end it. Every way out goes through the turn's ender (`turn-end.ts`),
 * which answers dangling tool calls and emits exactly one `turn_end`. Never throws.
 */
export async function runTurn(deps: TurnDeps, req: TurnRequest): Promise<TurnOutcome> {
  const stops = watchStops(req)
  const ctx = createTurnState(deps, req, stops.signal)
  const tally = new TurnTally(ctx)
  const end = turnEnder(ctx, tally)
  try {
    openTurn(ctx)
    return end(...(await runRounds(ctx, tally)))
  } catch (e) {
    return end(...failureEnding(ctx, e))
  } finally {
    stops.release()
  }
}

/** The turn's signal, aborted by the stop button (the caller's signal) or the deadline. */
function watchStops(req: TurnRequest): { signal: AbortSignal; release(): void } {
  const controller = new AbortController()
  const onStop = (): void => controller.abort(req.signal?.reason ?? new AbortReason('stop'))
  if (req.signal?.aborted) onStop()
  req.signal?.addEventListener('abort', onStop, { once: true })
  const deadline = setTimeout(
    () => controller.abort(new AbortReason('deadline')),
    req.limits.deadlineMs,
  )
  return {
    signal: controller.signal,
    release: () => {
      clearTimeout(deadline)
      req.signal?.removeEventListener('abort', onStop)
    },
  }
}

/** an aborted turn ends at its deadline, or stopped */
function abortReason(ctx: TurnState): TurnEndReason {
  return abortKindOf(ctx.signal) === 'deadline' ? 'deadline' : 'aborted'
}

/**
 * Takes the branch the turn goes on into its state, with the user's message a host stored
 * before it acknowledged the send (or stores it now, `user-message.ts`), and says the turn
 * started (and what an interrupted turn left open).
 */
function openTurn(ctx: TurnState): void {
  const { deps, req } = ctx
  const { repaired, branch, after, message } = req.stored ?? storeUserMessage(deps.store, req)
  ctx.history.push(...branch)
  ctx.tip = after
  ctx.emit({
    type: 'turn_start',
    model: deps.llm.model,
    provider: deps.llm.provider,
    after,
    ...(req.answerAgain !== undefined ? { answerAgain: req.answerAgain } : {}),
  })
  if (repaired > 0) {
    ctx.emit({
      type: 'notice',
      level: 'warning',
      message: `${repaired} tool call(s) from an interrupted turn were marked as interrupted.`,
    })
  }
  if (message) ctx.saved(message)
}

/** One LLM call and then its tool calls, round after round, until the turn must end. */
async function runRounds(ctx: TurnState, tally: TurnTally): Promise<Ending> {
  for (let round = 1; ; round++) {
    if (ctx.signal.aborted) return [abortReason(ctx)]
    if (tally.llmCalls >= ctx.req.limits.maxIterations) return ['max_iterations']
    const tools = await listTools(ctx, round)
    tally.llmCalls++
    let result: CompletionResult
    try {
      result = await callModel(ctx, tools, round)
    } catch (e) {
      if (storageFailure(e, true)) throw e // a summary that could not be stored: failureEnding
      return keepPartialAnswer(ctx, tally, e)
    }
    const assistant = saveAnswer(ctx, tally, result)
    if (result.toolCalls.length === 0) return ['completed']
    const reason = await runToolRound(ctx, assistant, tools)
    if (reason) return [reason]
  }
}

/** Counts and saves the model's answer, and says when it was cut at its output limit. */
function saveAnswer(ctx: TurnState, tally: TurnTally, result: CompletionResult): StoredMessage {
  const { llm } = ctx.deps
  // the server stopped the answer at the model's output limit (max_tokens, n_predict, …)
  const truncated = result.finishReason === 'length'
  const cost = tally.count(result.usage, result.timeToFirstTokenMs, result.tokensPerSecond)
  const assistant = ctx.save({
    role: 'assistant',
    content: result.content,
    reasoning: result.reasoning,
    reasoningMs: result.reasoningMs,
    toolCalls: result.toolCalls.length > 0 ? result.toolCalls : null,
    providerExtras: result.providerExtras,
    provider: llm.provider,
    model: llm.model,
    servedModel: servedOtherThan(llm.model, result.servedModel),
    usage: result.usage,
    ...priced(llm.price, cost),
    status: truncated ? 'truncated' : 'complete',
  })
  if (truncated) ctx.emit({ type: 'notice', level: 'warning', message: TRUNCATED_NOTICE })
  return assistant
}

/** How a turn that threw ends: a store that failed, a stop, or Cairn's own failure. */
function failureEnding(ctx: TurnState, e: unknown): Ending {
  // the store failed: said (with what was not saved) even when the turn was also stopped
  const storage = storageFailure(
    e,
    ctx.history.some((m) => m.turnId === ctx.req.turnId),
  )
  if (storage) return ['error', storage]
  if (ctx.signal.aborted) return [abortReason(ctx)]
  // a bug: logged with its stack where the host can, and named by the id in that line
  const id = ctx.deps.reportBug?.(e)
  if (!id) return ['error', { code: 'internal', message: `Cairn failed: ${messageOf(e)}` }]
  const message = `Cairn failed: ${messageOf(e)} (error ${id}; the log has the details)`
  return ['error', { code: 'internal', message, details: { id } }]
}

/** the price an answer was counted at and its cost, stored with it (none: no price known) */
function priced(
  price: ModelPrice | null | undefined,
  cost: number | null,
): Pick<StoredMessage, 'price' | 'cost'> {
  return price && cost !== null ? { price, cost } : {}
}

/** What the user is told when an answer hit the model's output limit. */
export const TRUNCATED_NOTICE = "The answer was cut at the model's output limit."

async function listTools(ctx: TurnState, round: number): Promise<ToolDescriptor[]> {
  const host = ctx.deps.tools
  if (round === 1 && host.waitUntilReady) {
    for (const message of await host.waitUntilReady(ctx.signal)) {
      ctx.emit({ type: 'notice', level: 'warning', message })
    }
  }
  // the tools the conversation used lately are offered again without a search
  if (round === 1 && host instanceof ToolCatalog) host.remember(recentToolNames(ctx.history))
  const tools = await host.listTools()
  const notice =
    host instanceof ToolCatalog && ctx.deps.llm.tools !== false ? host.takeNotice() : null
  if (notice) ctx.emit({ type: 'notice', level: 'info', message: notice })
  return tools
}

/** Keeps what streamed before a failed LLM call (marked stopped or interrupted) and says why. */
function keepPartialAnswer(ctx: TurnState, tally: TurnTally, e: unknown): Ending {
  const err = e instanceof LlmError ? e : null
  const aborted = err?.code === 'aborted' || ctx.signal.aborted
  const partial = err?.partial
  if (partial && (partial.content !== '' || partial.reasoning)) {
    // what was written is counted like a whole answer: in the turn's and the session's totals
    const ttft = partial.timeToFirstTokenMs ?? null
    const cost = partial.usage
      ? tally.count(
          partial.usage,
          ttft,
          tokensPerSecond(partial.usage.outputTokens, ttft, partial.latencyMs),
        )
      : null
    ctx.save({
      role: 'assistant',
      content: partial.content,
      reasoning: partial.reasoning,
      reasoningMs: partial.reasoningMs ?? null,
      provider: ctx.deps.llm.provider,
      model: ctx.deps.llm.model,
      servedModel: servedOtherThan(ctx.deps.llm.model, partial.servedModel),
      usage: partial.usage ?? null,
      ...(partial.usage ? priced(ctx.deps.llm.price, cost) : {}),
      status: aborted ? 'stopped' : 'interrupted',
    })
  }
  if (aborted) return [abortReason(ctx)]
  if (!err) return ['error', { code: 'internal', message: messageOf(e) }]
  // the provider's address goes with its code, for the window to offer its settings
  return [
    'error',
    {
      code: err.code,
      message: err.message,
      details: { ...err.details, retryable: err.retryable, provider: ctx.deps.llm.provider },
    },
  ]
}

/** the model the server named, when it is not the one asked for (else null) */
function servedOtherThan(requested: string, served: string | null | undefined): string | null {
  return served && served !== requested ? served : null
}
