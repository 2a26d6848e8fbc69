/**
 * How one streamed attempt ends, the same for every client (the OpenAI-compatible one and
 * Ollama's native API): the result of a complete stream, and the errors of one that was
 * stopped, stalled or cut short (each carrying what was streamed).
 */
import type { PartialOutput, StreamNormalizer } from './stream-normalizer'
import { tokensPerSecond } from './throughput'
import { LlmError, abortKindOf, type CompletionResult } from './types'

type Output = ReturnType<StreamNormalizer['output']>

/** the result of a complete stream; `unfinished` names the finish when the server sent none */
export function streamResult(
  norm: StreamNormalizer,
  startedAt: number,
  body: Record<string, unknown>,
  unfinished: (out: Output) => string,
): CompletionResult {
  const out = norm.output(norm.inputChars)
  const timeToFirstTokenMs = norm.firstDeltaAt === null ? null : Math.round(norm.firstDeltaAt)
  const latencyMs = Math.round(performance.now() - startedAt)
  return {
    content: out.content,
    reasoning: out.reasoning,
    toolCalls: out.toolCalls,
    finishReason: norm.finishReason ?? unfinished(out),
    usage: out.usage,
    providerExtras: out.providerExtras,
    reasoningMs: out.reasoningMs,
    timeToFirstTokenMs,
    latencyMs,
    tokensPerSecond: tokensPerSecond(out.usage.outputTokens, timeToFirstTokenMs, latencyMs),
    servedModel: norm.servedModel,
    requestBody: body,
  }
}

/** the turn's signal stopped the attempt (Stop, or the turn's deadline) */
export function abortedError(outer: AbortSignal, norm: StreamNormalizer): LlmError {
  const kind = abortKindOf(outer) ?? 'stop'
  return new LlmError('aborted', kind === 'deadline' ? 'The turn ran out of time.' : 'Stopped.', {
    abortKind: kind,
    partial: norm.partial(),
  })
}

/** the server sent nothing for `idleMs` */
export function idleTimeoutError(
  baseURL: string,
  idleMs: number,
  partial: PartialOutput,
): LlmError {
  return new LlmError(
    'idle_timeout',
    `${baseURL} sent nothing for ${Math.round(idleMs / 1000)} s; the stream was dropped.`,
    { retryable: true, partial },
  )
}

/** the stream ended with no sign that the answer was whole */
export function interruptedError(baseURL: string, partial: PartialOutput): LlmError {
  return new LlmError(
    'interrupted',
    `The stream from ${baseURL} ended before the answer was complete.`,
    { retryable: true, partial },
  )
}
