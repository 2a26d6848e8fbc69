import { streamWithRetry } from '../llm/retry'
import type { ChatRequest, CompletionResult, RetryInfo } from '../llm/types'
import { LlmError } from '../llm/types'
import type { ToolDescriptor, TurnLogHandle } from '../ports'
import { fitToContext, type FitDiagnostics } from './context-fit'
import { buildRequestView, toWireTools } from './request-view'
import type { TurnContext } from './turn-context'

/**
 * One LLM call of a turn: builds the request-time view, streams the completion with
 * retries (deltas and retries become events), and writes the turn log pair.
 * Resolves with the completion or throws an LlmError (with any partial output).
 */
export async function callModel(
  ctx: TurnContext,
  tools: readonly ToolDescriptor[],
  round: number,
): Promise<CompletionResult> {
  const { llm, clock } = ctx.deps
  const { messages, diagnostics } = buildRequestView(ctx.history, {
    provider: llm.provider,
    model: llm.model,
    systemPrompt: ctx.req.systemPrompt,
    imageInput: llm.imageInput === true,
  })
  if (round === 1 && diagnostics.flattenedToolCalls > 0) {
    ctx.emit({
      type: 'notice',
      level: 'info',
      message: `Earlier tool calls came from another model; they are sent to ${llm.model} as text.`,
    })
  }
  const wireTools = toWireTools(tools)
  const fitted = fitToContext(messages, wireTools, { maxTokens: ctx.req.limits.contextTokens })
  noticeContextFit(ctx, fitted.diagnostics)
  const request: ChatRequest = { model: llm.model, messages: fitted.messages }
  if (wireTools.length > 0) request.tools = wireTools

  const retries: RetryInfo[] = []
  const started = clock.now()
  const log = beginLog(ctx, request, round)
  try {
    const result = await streamWithRetry(llm.client, request, {
      signal: ctx.signal,
      idleTimeoutMs: ctx.req.limits.idleTimeoutMs,
      policy: {
        maxRetries: ctx.req.limits.maxRetries,
        baseDelayMs: ctx.req.limits.retryBaseDelayMs,
      },
      sleep: (ms, signal) => clock.sleep(ms, signal),
      onDelta: (d) => ctx.emitDelta(d.type === 'text' ? 'text_delta' : 'reasoning_delta', d.text),
      onRetry: (info) => {
        retries.push(info)
        ctx.emit({ type: 'retry', ...info })
      },
    })
    await finishLog(log, {
      content: result.content,
      reasoning: result.reasoning,
      toolCalls: result.toolCalls,
      finishReason: result.finishReason,
      usage: result.usage,
      latencyMs: result.latencyMs,
      timeToFirstTokenMs: result.timeToFirstTokenMs,
      retries: retriesForLog(retries),
      error: null,
      status: 'complete',
    })
    return result
  } catch (e) {
    const err = e instanceof LlmError ? e : null
    await finishLog(log, {
      content: err?.partial?.content ?? '',
      reasoning: err?.partial?.reasoning ?? null,
      toolCalls: [],
      finishReason: null,
      usage: null,
      latencyMs: clock.now() - started,
      timeToFirstTokenMs: null,
      retries: retriesForLog(retries),
      error: { code: err?.code ?? 'unknown', message: e instanceof Error ? e.message : String(e) },
      status: err?.code === 'aborted' ? 'stopped' : 'error',
    })
    throw e
  }
}

function noticeContextFit(ctx: TurnContext, d: FitDiagnostics): void {
  if (d.omittedMessages === 0 && d.shortenedToolResults === 0) return
  const parts: string[] = []
  if (d.shortenedToolResults > 0)
    parts.push(`${d.shortenedToolResults} older tool results were shortened`)
  if (d.omittedMessages > 0) parts.push(`${d.omittedMessages} earlier messages were left out`)
  const message = `To fit the context window (${ctx.req.limits.contextTokens} tokens), ${parts.join(' and ')}; the stored conversation is unchanged.`
  if (message === ctx.contextNotice) return
  ctx.contextNotice = message
  ctx.emit({ type: 'notice', level: 'info', message })
}

const retriesForLog = (retries: RetryInfo[]) =>
  retries.map((r) => ({ attempt: r.attempt, reason: r.reason, delayMs: r.delayMs }))

type LogStart = Promise<TurnLogHandle | null>

function beginLog(ctx: TurnContext, request: ChatRequest, round: number): LogStart {
  const { logger, llm } = ctx.deps
  if (!logger) return Promise.resolve(null)
  return logger
    .begin(ctx.req.sessionId, {
      baseURL: llm.baseURL,
      model: llm.model,
      body: llm.client.buildBody(request),
      turnId: ctx.req.turnId,
      round,
      attempt: 1,
    })
    .catch(() => null) // a turn log is never worth failing a turn for
}

async function finishLog(
  log: LogStart,
  response: Parameters<TurnLogHandle['finish']>[0],
): Promise<void> {
  try {
    const handle = await log
    await handle?.finish(response)
  } catch {
    // logged by the logger's own error handler; never fails the turn
  }
}
