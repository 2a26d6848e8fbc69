import type { ErrorInfo, NewMessage, StoredMessage, Usage } from '../../../src-preload/contract/dto'
import type {
  AgentEvent,
  AgentEventInput,
  TurnEndReason,
} from '../../../src-preload/contract/events'
import { tokensPerSecond } from '../llm/throughput'
import { AbortReason, abortKindOf, LlmError } from '../llm/types'
import type { ToolDescriptor } from '../ports'
import { retriedSeq } from './history-path'
import { LoopDetector } from './loop-detector'
import { callModel } from './model-call'
import { PermissionGate } from './permissions'
import { danglingKindFor, danglingText } from './synthetic'
import type { TurnContext, TurnDeps, TurnRequest } from './turn-context'
import { runToolRound } from './tool-round'
import { NotSavedError, storageFailure } from './save-failure'
import { recentToolNames, ToolCatalog, toolLimit } from './tool-catalog'

export interface TurnOutcome {
  reason: TurnEndReason
  error?: ErrorInfo
  usage: { inputTokens: number; outputTokens: number }
  llmCalls: number
  toolExecutions: number
}

/**
 * Runs one turn: LLM call → tool calls → next LLM call … until the model answers without
 * tool calls or a stop condition fires. Every way out goes through `stop()`, which answers
 * dangling tool calls and emits exactly one `turn_end`. Never throws.
 */
export async function runTurn(deps: TurnDeps, req: TurnRequest): Promise<TurnOutcome> {
  const controller = new AbortController()
  const onStop = (): void => controller.abort(req.signal?.reason ?? new AbortReason('stop'))
  if (req.signal?.aborted) onStop()
  req.signal?.addEventListener('abort', onStop, { once: true })
  const deadline = setTimeout(
    () => controller.abort(new AbortReason('deadline')),
    req.limits.deadlineMs,
  )

  const usage = { inputTokens: 0, outputTokens: 0 }
  let llmCalls = 0
  const ctx: TurnContext = {
    // past the tool limit the model looks tools up with find_tools
    deps: { ...deps, tools: new ToolCatalog(deps.tools, toolLimit(req.limits.maxToolsOffered)) },
    req,
    signal: controller.signal,
    history: [],
    gate: new PermissionGate(req.policy, deps.approver, deps.rules),
    loop: new LoopDetector(req.limits.loopThreshold, req.limits.loopMaxWarnings),
    toolExecutions: 0,
    decisions: new Map(),
    contextNotice: null,
    emit: (e: AgentEventInput) =>
      req.emit({
        ...e,
        sessionId: req.sessionId,
        turnId: req.turnId,
        at: deps.clock.now(),
      } as AgentEvent),
    emitDelta: (type, text) =>
      req.emit({ type, text, sessionId: req.sessionId, turnId: req.turnId, at: deps.clock.now() }),
    save: (message: NewMessage): StoredMessage => {
      let saved: StoredMessage
      try {
        saved = deps.store.appendMessage(req.sessionId, { turnId: req.turnId, ...message })
      } catch (e) {
        throw new NotSavedError(message, e)
      }
      ctx.history.push(saved)
      ctx.emit({
        type: 'message_saved',
        messageId: saved.id,
        messageSeq: saved.seq,
        role: saved.role,
        status: saved.status,
      })
      return saved
    },
  }

  let ended: TurnOutcome | null = null
  const stop = (reason: TurnEndReason, error?: ErrorInfo): TurnOutcome => {
    if (ended) return ended
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
    ended = {
      reason,
      ...(error ? { error } : {}),
      usage,
      llmCalls,
      toolExecutions: ctx.toolExecutions,
    }
    return ended
  }
  /** adds one call's usage to the turn's and says so in a `usage` event */
  const count = (u: Usage, timeToFirstTokenMs: number | null, rate: number | null): void => {
    usage.inputTokens += u.inputTokens
    usage.outputTokens += u.outputTokens
    ctx.emit({
      type: 'usage',
      inputTokens: u.inputTokens,
      outputTokens: u.outputTokens,
      estimated: u.estimated,
      turnInputTokens: usage.inputTokens,
      turnOutputTokens: usage.outputTokens,
      timeToFirstTokenMs,
      tokensPerSecond: rate,
    })
  }
  const abortReason = (): TurnEndReason =>
    abortKindOf(controller.signal) === 'deadline' ? 'deadline' : 'aborted'

  try {
    ctx.emit({ type: 'turn_start', model: deps.llm.model, provider: deps.llm.provider })
    const repaired = deps.store.repairDanglingToolCalls(req.sessionId)
    if (repaired.length > 0) {
      ctx.emit({
        type: 'notice',
        level: 'warning',
        message: `${repaired.length} tool call(s) from an interrupted turn were marked as interrupted.`,
      })
    }
    ctx.history.push(...deps.store.listMessages(req.sessionId))
    ctx.save({
      role: 'user',
      content: req.text,
      ...(req.parts && req.parts.length > 0 ? { parts: req.parts } : {}),
      status: 'complete',
      // asking again what a failed turn asked replaces it: the question is not sent twice
      supersedes: req.supersedes ?? retriedSeq(ctx.history, req.text),
    })

    for (let round = 1; ; round++) {
      if (controller.signal.aborted) return stop(abortReason())
      if (llmCalls >= req.limits.maxIterations) return stop('max_iterations')
      const tools = await listTools(ctx, round)
      llmCalls++
      let result
      try {
        result = await callModel(ctx, tools, round)
      } catch (e) {
        if (storageFailure(e, true)) throw e // a summary that could not be stored: below
        return stop(...handleModelFailure(ctx, e, abortReason, count))
      }
      // the server stopped the answer at the model's output limit (max_tokens, n_predict, …)
      const truncated = result.finishReason === 'length'
      count(result.usage, result.timeToFirstTokenMs, result.tokensPerSecond)
      const assistant = ctx.save({
        role: 'assistant',
        content: result.content,
        reasoning: result.reasoning,
        reasoningMs: result.reasoningMs,
        toolCalls: result.toolCalls.length > 0 ? result.toolCalls : null,
        providerExtras: result.providerExtras,
        provider: deps.llm.provider,
        model: deps.llm.model,
        servedModel: servedOtherThan(deps.llm.model, result.servedModel),
        usage: result.usage,
        status: truncated ? 'truncated' : 'complete',
      })
      if (truncated) {
        ctx.emit({
          type: 'notice',
          level: 'warning',
          message: TRUNCATED_NOTICE,
        })
      }
      if (result.toolCalls.length === 0) return stop('completed')
      const reason = await runToolRound(ctx, assistant, tools)
      if (reason) return stop(reason)
    }
  } catch (e) {
    // the store failed: said (with what was not saved) even when the turn was also stopped
    const storage = storageFailure(e, ctx.history.some((m) => m.turnId === req.turnId))
    if (storage) return stop('error', storage)
    if (controller.signal.aborted) return stop(abortReason())
    return stop('error', {
      code: 'internal',
      message: `Cairn failed: ${e instanceof Error ? e.message : String(e)}`,
    })
  } finally {
    clearTimeout(deadline)
    req.signal?.removeEventListener('abort', onStop)
  }
}

/** What the user is told when an answer hit the model's output limit. */
export const TRUNCATED_NOTICE = "The answer was cut at the model's output limit."

async function listTools(ctx: TurnContext, round: number): Promise<ToolDescriptor[]> {
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

/** Keeps what streamed before a failure (marked stopped or interrupted) and says why. */
function handleModelFailure(
  ctx: TurnContext,
  e: unknown,
  abortReason: () => TurnEndReason,
  count: (u: Usage, timeToFirstTokenMs: number | null, rate: number | null) => void,
): [TurnEndReason, ErrorInfo?] {
  const err = e instanceof LlmError ? e : null
  const aborted = err?.code === 'aborted' || ctx.signal.aborted
  const partial = err?.partial
  if (partial && (partial.content !== '' || partial.reasoning)) {
    // what was written is counted like a whole answer: in the turn's and the session's totals
    const ttft = partial.timeToFirstTokenMs ?? null
    if (partial.usage) {
      count(
        partial.usage,
        ttft,
        tokensPerSecond(partial.usage.outputTokens, ttft, partial.latencyMs),
      )
    }
    ctx.save({
      role: 'assistant',
      content: partial.content,
      reasoning: partial.reasoning,
      reasoningMs: partial.reasoningMs ?? null,
      provider: ctx.deps.llm.provider,
      model: ctx.deps.llm.model,
      servedModel: servedOtherThan(ctx.deps.llm.model, partial.servedModel),
      usage: partial.usage ?? null,
      status: aborted ? 'stopped' : 'interrupted',
    })
  }
  if (aborted) return [abortReason()]
  return [
    'error',
    { code: err?.code ?? 'internal', message: e instanceof Error ? e.message : String(e) },
  ]
}

/** the model the server named, when it is not the one asked for (else null) */
function servedOtherThan(requested: string, served: string | null | undefined): string | null {
  return served && served !== requested ? served : null
}

/** Every tool call of the last assistant message gets exactly one result. */
function answerDangling(ctx: TurnContext, reason: TurnEndReason): void {
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
