import { messageChars, toolChars } from '../llm/estimate'
import { streamWithRetry } from '../llm/retry'
import type { ChatRequest, CompletionResult, RetryInfo } from '../llm/types'
import { tokensPerSecond } from '../llm/throughput'
import { AbortReason, LlmError } from '../llm/types'
import type { ToolDescriptor, TurnLogHandle } from '../ports'
import { prepareContext, type ContextDiagnostics } from './context-view'
import { DEFAULT_LIMITS } from './limits'
import { toWireTools } from './request-view'
import { ToolCatalog } from './tool-catalog'
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
  const wireTools = llm.tools === false ? [] : toWireTools(tools)
  const { messages, diagnostics } = await prepareContext(ctx, wireTools, round)
  if (round === 1 && diagnostics.flattenedToolCalls > 0) {
    ctx.emit({
      type: 'notice',
      level: 'info',
      message: `Earlier tool calls came from another model; they are sent to ${llm.model} as text.`,
    })
  }
  if (round === 1) {
    for (const message of llm.notices ?? []) ctx.emit({ type: 'notice', level: 'info', message })
    if (llm.tools === false && tools.length > 0) {
      ctx.emit({
        type: 'notice',
        level: 'warning',
        message: `${llm.model} cannot use tools (the server says so), so its ${tools.length} tools are not offered to it.`,
      })
    }
  }
  noticeContextFit(ctx, diagnostics.trimmed)
  const request: ChatRequest = { model: llm.model, messages }
  if (wireTools.length > 0) request.tools = wireTools
  if (llm.params) request.params = llm.params

  const retries: RetryInfo[] = []
  const started = clock.now()
  const log = beginLog(ctx, request, round, diagnostics)
  const cap = new AnswerCap(ctx.req.limits.maxAnswerChars)
  // both signals stay referenced here until the call settles
  const signal = AbortSignal.any([ctx.signal, cap.signal])
  try {
    const result = await streamWithRetry(llm.client, request, {
      signal,
      idleTimeoutMs: ctx.req.limits.idleTimeoutMs,
      policy: {
        maxRetries: ctx.req.limits.maxRetries,
        baseDelayMs: ctx.req.limits.retryBaseDelayMs,
      },
      sleep: (ms, signal) => clock.sleep(ms, signal),
      onDelta: (d) => {
        const text = cap.admit(d.text)
        if (text) ctx.emitDelta(d.type === 'text' ? 'text_delta' : 'reasoning_delta', text)
      },
      onRetry: (info) => {
        retries.push(info)
        ctx.emit({ type: 'retry', ...info })
      },
    })
    // the server counted this request: the model's characters per token learn from it
    if (!result.usage.estimated && ctx.deps.calibration) {
      const chars = messageChars(messages) + toolChars(wireTools)
      ctx.deps.calibration.observe(llm.provider, llm.model, chars, result.usage.inputTokens)
    }
    await finishLog(log, {
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
    })
    return result
  } catch (caught) {
    const e = cap.reached && !ctx.signal.aborted ? cap.error(caught) : caught
    const err = e instanceof LlmError ? e : null
    const partial = err?.partial
    // a stopped or cut answer still says how long the first token took and what it used
    const ttft = partial?.timeToFirstTokenMs ?? null
    await finishLog(log, {
      content: partial?.content ?? '',
      reasoning: partial?.reasoning ?? null,
      toolCalls: [],
      finishReason: null,
      usage: partial?.usage ?? null,
      latencyMs: partial?.latencyMs ?? clock.now() - started,
      timeToFirstTokenMs: ttft,
      tokensPerSecond: partial?.usage
        ? tokensPerSecond(partial.usage.outputTokens, ttft, partial.latencyMs)
        : null,
      servedModel: partial?.servedModel ?? null,
      retries: retriesForLog(retries),
      error: { code: err?.code ?? 'unknown', message: e instanceof Error ? e.message : String(e) },
      status: err?.code === 'aborted' ? 'stopped' : 'error',
    })
    throw e
  }
}

/**
 * The size limit of one answer (`maxAnswerChars`, text and reasoning together): what streams
 * past it is not shown, the stream is aborted, and the call fails with `answer_too_long`
 * carrying what came up to the limit.
 */
class AnswerCap {
  private received = 0
  private readonly controller = new AbortController()
  readonly signal = this.controller.signal

  private readonly max: number

  constructor(max: number | undefined) {
    this.max = Number.isInteger(max) && max! > 0 ? max! : DEFAULT_LIMITS.maxAnswerChars
  }

  get reached(): boolean {
    return this.controller.signal.aborted
  }

  /** the part of `text` within the limit ('' once it is reached) */
  admit(text: string): string {
    if (this.reached) return ''
    const room = this.max - this.received
    this.received += text.length
    if (text.length <= room) return text
    this.controller.abort(new AbortReason('stop'))
    return text.slice(0, Math.max(0, room))
  }

  error(cause: unknown): LlmError {
    const partial = cause instanceof LlmError ? cause.partial : undefined
    const reasoning = partial?.reasoning ? partial.reasoning.slice(0, this.max) : null
    const content = (partial?.content ?? '').slice(
      0,
      Math.max(0, this.max - (reasoning?.length ?? 0)),
    )
    const size = this.max >= 1_000_000 ? `${this.max / 1_000_000} million` : String(this.max)
    return new LlmError(
      'answer_too_long',
      `The answer passed ${size} characters, the limit of one answer, and was cut there; what came is kept. ` +
        'Ask for a shorter answer, or raise "maxAnswerChars" in the limits of the settings.',
      { partial: { ...partial, content, reasoning }, cause },
    )
  }
}

function noticeContextFit(ctx: TurnContext, d: ContextDiagnostics['trimmed']): void {
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

type LogStart = Promise<TurnLogHandle | null>

function beginLog(
  ctx: TurnContext,
  request: ChatRequest,
  round: number,
  diagnostics: ContextDiagnostics,
): LogStart {
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
