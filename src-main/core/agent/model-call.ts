import { messageChars, toolChars } from '../llm/estimate'
import { streamWithRetry } from '../llm/retry'
import type { ChatRequest, CompletionResult, RetryInfo } from '../llm/types'
import { tokensPerSecond } from '../llm/throughput'
import { LlmError } from '../llm/types'
import type { ToolDescriptor, TurnLogHandle } from '../ports'
import { prepareRequestView, type RequestViewDiagnostics } from './prepare-request-view'
import { toWireTools } from './request-view'
import { ToolCatalog } from './tool-catalog'
import type { TurnState } from './turn-state'

/**
 * One LLM call of a turn: builds the request from the request-time view, streams the
 * completion with retries (deltas and retries become events), and writes the turn log pair.
 * Resolves with the completion or throws an LlmError (with any partial output).
 */
export async function callModel(
  ctx: TurnState,
  tools: readonly ToolDescriptor[],
  round: number,
): Promise<CompletionResult> {
  const { clock } = ctx.deps
  const { request, diagnostics } = await buildRequest(ctx, tools, round)
  const retries: RetryInfo[] = []
  // the request file exists before the request goes out: after a crash, the call in
  // flight is in the log (turn-log.ts)
  const log = await beginLog(ctx, request, round, diagnostics)
  const started = clock.now()
  try {
    const result = await streamAnswer(ctx, request, retries)
    calibrate(ctx, request, result)
    await finishLog(log, answerForLog(result, retries))
    return result
  } catch (e) {
    await finishLog(log, failureForLog(e, retries, clock.now() - started))
    throw e
  }
}

/** The request of this round: the request-time view, the tools the model may use, its params. */
async function buildRequest(
  ctx: TurnState,
  tools: readonly ToolDescriptor[],
  round: number,
): Promise<{ request: ChatRequest; diagnostics: RequestViewDiagnostics }> {
  const { llm } = ctx.deps
  const wireTools = llm.tools === false ? [] : toWireTools(tools)
  const { messages, diagnostics } = await prepareRequestView(ctx, wireTools, round)
  if (round === 1) noticeFirstRound(ctx, tools, diagnostics)
  noticeContextFit(ctx, diagnostics.trimmed)
  const request: ChatRequest = { model: llm.model, messages }
  if (wireTools.length > 0) request.tools = wireTools
  if (llm.params) request.params = llm.params
  return { request, diagnostics }
}

/** What the user should know before the model's first answer of the turn. */
function noticeFirstRound(
  ctx: TurnState,
  tools: readonly ToolDescriptor[],
  diagnostics: RequestViewDiagnostics,
): void {
  const { llm } = ctx.deps
  if (diagnostics.flattenedToolCalls > 0) {
    ctx.emit({
      type: 'notice',
      level: 'info',
      message: `Earlier tool calls came from another model; they are sent to ${llm.model} as text.`,
    })
  }
  for (const message of llm.notices ?? []) ctx.emit({ type: 'notice', level: 'info', message })
  if (llm.tools === false && tools.length > 0) {
    ctx.emit({
      type: 'notice',
      level: 'warning',
      message: `${llm.model} cannot use tools (the server says so), so its ${tools.length} tools are not offered to it.`,
    })
  }
}

/**
 * Streams the answer with retries: deltas as they come (the client cuts the answer at
 * `maxAnswerChars`, every part together), each retry said.
 */
function streamAnswer(
  ctx: TurnState,
  request: ChatRequest,
  retries: RetryInfo[],
): Promise<CompletionResult> {
  const { llm, clock } = ctx.deps
  const { limits } = ctx.req
  return streamWithRetry(llm.client, request, {
    signal: ctx.signal,
    idleTimeoutMs: limits.idleTimeoutMs,
    maxAnswerChars: limits.maxAnswerChars,
    policy: { maxRetries: limits.maxRetries, baseDelayMs: limits.retryBaseDelayMs },
    sleep: (ms, signal) => clock.sleep(ms, signal),
    onDelta: (d) => ctx.emitDelta(d.type === 'text' ? 'text_delta' : 'reasoning_delta', d.text),
    onRetry: (info) => {
      retries.push(info)
      ctx.emit({ type: 'retry', ...info })
    },
  })
}

/** the server counted this request: the model's characters per token learn from it */
function calibrate(ctx: TurnState, request: ChatRequest, result: CompletionResult): void {
  const { llm, calibration } = ctx.deps
  if (result.usage.estimated || !calibration) return
  const chars = messageChars(request.messages) + toolChars(request.tools)
  calibration.observe(llm.provider, llm.model, chars, result.usage.inputTokens)
}

type LogResponse = Parameters<TurnLogHandle['finish']>[0]

function answerForLog(result: CompletionResult, retries: RetryInfo[]): LogResponse {
  return {
    content: result.content,
    reasoning: result.reasoning,
    toolCalls: result.toolCalls,
    finishReason: result.finishReason,
    usage: result.usage,
    latencyMs: result.latencyMs,
    timeToFirstTokenMs: result.timeToFirstTokenMs,
    tokensPerSecond: result.tokensPerSecond,
    servedModel: result.servedModel,
    retries: retriesForLog(retries),
    error: null,
    status: 'complete',
  }
}

/** a stopped or cut answer still says how long the first token took and what it used */
function failureForLog(e: unknown, retries: RetryInfo[], elapsedMs: number): LogResponse {
  const err = e instanceof LlmError ? e : null
  const partial = err?.partial
  const ttft = partial?.timeToFirstTokenMs ?? null
  return {
    content: partial?.content ?? '',
    reasoning: partial?.reasoning ?? null,
    toolCalls: [],
    finishReason: null,
    usage: partial?.usage ?? null,
    latencyMs: partial?.latencyMs ?? elapsedMs,
    timeToFirstTokenMs: ttft,
    tokensPerSecond: partial?.usage
      ? tokensPerSecond(partial.usage.outputTokens, ttft, partial.latencyMs)
      : null,
    servedModel: partial?.servedModel ?? null,
    retries: retriesForLog(retries),
    error: { code: err?.code ?? 'unknown', message: e instanceof Error ? e.message : String(e) },
    status: err?.code === 'aborted' ? 'stopped' : 'error',
  }
}

function noticeContextFit(ctx: TurnState, d: RequestViewDiagnostics['trimmed']): void {
  if (!d) return
  const parts: string[] = []
  if (d.shortenedToolResults > 0)
    parts.push(`${d.shortenedToolResults} older tool results were shortened`)
  if (d.droppedMessages > 0) parts.push(`${d.droppedMessages} earlier messages were left out`)
  const message = `To fit the context window (${ctx.req.limits.contextTokens} tokens), ${parts.join(' and ')}; the stored conversation is unchanged.`
  if (message === ctx.contextNotice) return
  ctx.contextNotice = message
  ctx.emit({ type: 'notice', level: d.droppedMessages > 0 ? 'warning' : 'info', message })
}

const retriesForLog = (retries: RetryInfo[]) =>
  retries.map((r) => ({ attempt: r.attempt, reason: r.reason, delayMs: r.delayMs }))

function beginLog(
  ctx: TurnState,
  request: ChatRequest,
  round: number,
  diagnostics: RequestViewDiagnostics,
): Promise<TurnLogHandle | null> {
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
      diagnostics: {
        context: diagnostics,
        // which tools this request offered, of how many connected (the inspector shows it)
        ...(ctx.deps.tools instanceof ToolCatalog ? { tools: ctx.deps.tools.offer() } : {}),
      },
    })
    .catch(() => null) // a turn log is never worth failing a turn for
}

async function finishLog(handle: TurnLogHandle | null, response: LogResponse): Promise<void> {
  try {
    await handle?.finish(response)
  } catch {
    // logged by the logger's own error handler; never fails the turn
  }
}
