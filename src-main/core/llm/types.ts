/**
 * The LLM client's public shapes. One internal stream of events, whatever dialect the
 * server speaks (OpenAI, DeepSeek, OpenRouter, LM Studio, Ollama, llama.cpp, vLLM).
 */
import type { ToolCallRecord, Usage } from '../../../src-preload/contract/dto'
import type { ProviderErrorCode } from '../../../src-preload/contract/errors'
import { ExpectedError } from '../errors'

export interface LlmEndpoint {
  /** e.g. `http://127.0.0.1:11434/v1` */
  baseURL: string
  /** local servers need none */
  apiKey?: string
  headers?: Record<string, string>
}

/** An OpenAI chat message as sent (assistant messages may carry `reasoning_content` etc.). */
export type WireMessage = Record<string, unknown> & {
  role: 'system' | 'user' | 'assistant' | 'tool'
}

export interface WireTool {
  type: 'function'
  function: { name: string; description?: string; parameters?: Record<string, unknown> }
}

export interface ChatRequest {
  model: string
  messages: WireMessage[]
  tools?: WireTool[]
  /** extra body parameters (temperature, max_tokens, …) */
  params?: Record<string, unknown>
}

/** What streams to the UI while a completion is in flight. */
export type StreamDelta = { type: 'text'; text: string } | { type: 'reasoning'; text: string }

export interface CompletionResult {
  /** the assistant's text, never containing `<think>` tags */
  content: string
  /** null when the model sent none */
  reasoning: string | null
  toolCalls: ToolCallRecord[]
  /** as sent by the server; `stop` with tool calls present still means tool calls */
  finishReason: string
  /** from the final chunk, or estimated (and marked so) */
  usage: Usage
  /** fields a provider needs back on later requests (e.g. `reasoning_details`) */
  providerExtras: Record<string, unknown> | null
  timeToFirstTokenMs: number | null
  /** output tokens over the generation time (from the first token to the end); null without one */
  tokensPerSecond: number | null
  /** the model the server says answered (`chunk.model`); null when it named none */
  servedModel: string | null
  /** ms from the first reasoning delta to the first answer text or tool call; null without reasoning */
  reasoningMs: number | null
  latencyMs: number
  /** the exact body sent (for the turn log) */
  requestBody: unknown
}

/**
 * What went wrong with a request to the model (the contract's provider codes):
 * `auth` 401; `access_denied` 403; `model_not_found` a 404 naming the model;
 * `endpoint_not_found` another 404; `request_rejected` 400/422; `context_overflow` a 400/422
 * saying the request is too long; `rate_limited` 429; `server` 5xx, 408, 409; `network`
 * ECONNRESET, ECONNREFUSED, ETIMEDOUT, terminated, premature close; `interrupted` the stream
 * ended without a finish_reason and without [DONE]; `bad_response` a successful answer whose
 * body is not an event stream; `idle_timeout` the watchdog saw nothing for too long; `aborted`
 * stopped by the user or the deadline; `answer_too_long` the answer passed the turn's size
 * limit (maxAnswerChars): cut there; `retry_after_too_long` the server asked us to wait longer
 * than we will; `unknown` anything else.
 */
export type LlmErrorCode = ProviderErrorCode

/** Why a request was aborted from outside. */
export type AbortKind = 'stop' | 'deadline' | 'watchdog'

/** The reason given to `AbortController.abort()` so that every abort says where it came from. */
export class AbortReason extends ExpectedError<'aborted'> {
  constructor(readonly kind: AbortKind) {
    super('aborted', `aborted: ${kind}`, { details: { retryable: false } })
    this.name = 'AbortReason'
  }
}

export function abortKindOf(signal: AbortSignal): AbortKind | null {
  if (!signal.aborted) return null
  const r: unknown = signal.reason
  return r instanceof AbortReason ? r.kind : 'stop'
}

export interface LlmPartial {
  content: string
  reasoning: string | null
  reasoningMs?: number
  /** ms from the request to the first delta, when one came */
  timeToFirstTokenMs?: number
  /** ms from the request to the moment the partial was taken */
  latencyMs?: number
  /** the server's usage when it sent one before the end, else estimated from what came */
  usage?: Usage
  /** the model the server says answered (`chunk.model`), when it named one */
  servedModel?: string
}

export class LlmError extends ExpectedError<LlmErrorCode> {
  readonly status: number | undefined
  readonly retryable: boolean
  /** from `retry-after-ms` / `Retry-After` */
  readonly retryAfterMs: number | undefined
  /** what streamed before the failure (and how long the model reasoned, when it did) */
  readonly partial: LlmPartial | undefined
  /** for `aborted`: who aborted */
  readonly abortKind: AbortKind | undefined

  constructor(
    code: LlmErrorCode,
    message: string,
    init: {
      status?: number
      retryable?: boolean
      retryAfterMs?: number
      partial?: LlmPartial
      abortKind?: AbortKind
      cause?: unknown
    } = {},
  ) {
    super(code, message, {
      cause: init.cause,
      details: {
        retryable: init.retryable ?? false,
        ...(init.status !== undefined ? { status: init.status } : {}),
        ...(init.retryAfterMs !== undefined ? { retryAfterMs: init.retryAfterMs } : {}),
      },
    })
    this.name = 'LlmError'
    this.status = init.status
    this.retryable = init.retryable ?? false
    this.retryAfterMs = init.retryAfterMs
    this.partial = init.partial
    this.abortKind = init.abortKind
  }
}

export interface RetryPolicy {
  /** retries after the first attempt (default 3) */
  maxRetries: number
  /** first backoff (default 500 ms), doubled each time, with jitter */
  baseDelayMs: number
  /** the longest `Retry-After` we honour (default 60 s) */
  maxRetryAfterMs: number
}

export interface RetryInfo {
  /** the attempt that is about to start (2 = first retry) */
  attempt: number
  maxAttempts: number
  delayMs: number
  reason: string
  /** whether the failed attempt had streamed anything the UI must now drop */
  discardPartial: boolean
}
