/**
 * Maps whatever a request or a stream threw (the SDK's APIError family, undici's network
 * errors, our own aborts) to an LlmError whose message says what to fix.
 */
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError } from 'openai'
import { LlmError } from './types'
import type { LlmErrorCode, LlmPartial } from './types'

export interface ErrorContext {
  baseURL: string
  model: string
  partial?: LlmPartial
}

/** Error codes (on the error or anywhere in its `cause` chain) that mean the connection failed. */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'ETIMEDOUT',
  'EPIPE',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'ENETDOWN',
  'EHOSTUNREACH',
  'EHOSTDOWN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ERR_STREAM_PREMATURE_CLOSE',
])

const NETWORK_TEXT =
  /terminated|premature close|socket hang up|other side closed|ECONNRESET|ECONNREFUSED|ETIMEDOUT|fetch failed|network error|connection error/i

/**
 * What servers say when the request does not fit the model's context (llama.cpp: "the
 * request exceeds the available context size", OpenAI: `context_length_exceeded`, vLLM:
 * "maximum context length"). Their words are all there is: a 400 carries no such code.
 */
const CONTEXT_OVERFLOW_TEXT =
  /exceeds? the available context|context[_ ]length[_ ]exceeded|maximum context length|context window|exceeds? (the )?context|too many tokens|prompt is too long/i

function isContextOverflowText(serverSaid: string): boolean {
  return CONTEXT_OVERFLOW_TEXT.test(serverSaid)
}

/** `retry-after-ms` (milliseconds) or `Retry-After` (seconds or an HTTP date) → ms. */
export function parseRetryAfter(
  headers: Headers | undefined | null,
  now = Date.now(),
): number | undefined {
  if (!headers) return undefined
  const ms = headers.get('retry-after-ms')
  if (ms !== null && ms.trim() !== '') {
    const v = Number(ms)
    if (Number.isFinite(v) && v >= 0) return v
  }
  const ra = headers.get('retry-after')
  if (ra === null || ra.trim() === '') return undefined
  const seconds = Number(ra)
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000)
  const date = Date.parse(ra)
  return Number.isNaN(date) ? undefined : Math.max(0, date - now)
}

/** The first network error code in the error's cause chain, if any. */
export function networkCode(err: unknown): string | undefined {
  let e: unknown = err
  for (let depth = 0; depth < 6 && e !== null && typeof e === 'object'; depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code
    e = (e as { cause?: unknown }).cause
  }
  return undefined
}

function messagesOf(err: unknown): string {
  const parts: string[] = []
  let e: unknown = err
  for (let depth = 0; depth < 6 && e !== null && typeof e === 'object'; depth++) {
    const m = (e as { message?: unknown }).message
    if (typeof m === 'string' && m !== '') parts.push(m)
    e = (e as { cause?: unknown }).cause
  }
  return parts.join(': ')
}

export function isNetworkError(err: unknown): boolean {
  if (err instanceof APIConnectionError) return true
  if (err instanceof APIError) return false
  return networkCode(err) !== undefined || NETWORK_TEXT.test(messagesOf(err))
}

/** The server's own message from an APIError (without the SDK's status prefix). */
export function serverMessage(err: APIError): string {
  const body = err.error as { message?: unknown } | string | undefined | null
  if (typeof body === 'string' && body !== '') return body
  const m = body && typeof body === 'object' ? body.message : undefined
  if (typeof m === 'string' && m !== '') return m
  if (m !== undefined && m !== null) return JSON.stringify(m)
  const own = err.message.replace(/^\d{3}\s+/, '')
  return own === 'status code (no body)' ? '' : own
}

function errorCodeOf(err: APIError): string | undefined {
  const code: unknown = err.code ?? (err.error as { code?: unknown } | undefined)?.code
  return typeof code === 'string' ? code : undefined
}

/** Whether a rejected request means "this server does not know `stream_options`". */
export function isStreamOptionsRejection(err: unknown): boolean {
  return (
    err instanceof APIError &&
    (err.status === 400 || err.status === 422) &&
    (serverMessage(err) + err.message).includes('stream_options')
  )
}

/** Whether a 404 names the model (OpenAI: code `model_not_found`; Ollama: `model "x" not found`). */
function namesModel(err: APIError, msg: string, model: string): boolean {
  return (
    errorCodeOf(err) === 'model_not_found' ||
    (model !== '' && msg.includes(model)) ||
    /\bmodel\b/i.test(msg)
  )
}

function httpError(err: APIError, status: number, ctx: ErrorContext): LlmError {
  const msg = serverMessage(err)
  const said = msg ? `: ${msg}` : ''
  const base = { status, cause: err, partial: ctx.partial }
  const retryAfterMs = parseRetryAfter(err.headers)
  const retryable = (code: LlmErrorCode, message: string): LlmError =>
    new LlmError(code, message, { ...base, retryable: true, retryAfterMs })
  if (status === 401) {
    return new LlmError(
      'auth',
      `The API key was rejected by ${ctx.baseURL}. Check the key in the provider settings${msg ? ` (the server said: ${msg})` : ''}.`,
      base,
    )
  }
  if (status === 403)
    return new LlmError('access_denied', `Access forbidden by ${ctx.baseURL}${said}`, base)
  if (status === 404) {
    if (namesModel(err, msg, ctx.model)) {
      return new LlmError(
        'model_not_found',
        `Model '${ctx.model}' was not found on ${ctx.baseURL}${said}`,
        base,
      )
    }
    return new LlmError(
      'endpoint_not_found',
      `${ctx.baseURL} answered 404 Not Found${said}. Check the base URL (OpenAI-compatible servers usually end in /v1).`,
      base,
    )
  }
  if (status === 429) return retryable('rate_limited', `Rate limited by ${ctx.baseURL}${said}`)
  if (status === 408 || status === 409 || status >= 500) {
    return retryable('server', `${ctx.baseURL} answered ${status}${said}`)
  }
  if (errorCodeOf(err) === 'model_not_found') {
    return new LlmError(
      'model_not_found',
      `Model '${ctx.model}' was not found on ${ctx.baseURL}${said}`,
      base,
    )
  }
  if (status === 400 || status === 422) {
    return new LlmError(
      isContextOverflowText(msg) ? 'context_overflow' : 'request_rejected',
      msg || `${ctx.baseURL} rejected the request (${status}).`,
      base,
    )
  }
  return new LlmError('unknown', `${ctx.baseURL} answered ${status}${said}`, base)
}

function connectionError(err: unknown, ctx: ErrorContext): LlmError {
  const code = networkCode(err)
  const detail = messagesOf(err)
  const init = { retryable: true, cause: err, partial: ctx.partial }
  let message: string
  if (code === 'ECONNREFUSED' && isLoopback(ctx.baseURL)) {
    // a local server that is not running will not start by itself within a few seconds
    const kind = localServerKind(ctx.baseURL)
    return new LlmError(
      'network',
      `Could not connect: nothing is listening at ${origin(ctx.baseURL)} — is ${kind ?? 'the local server'} running?`,
      { retryable: false, cause: err, partial: ctx.partial },
    )
  } else if (code === 'ECONNREFUSED') {
    message = `Could not connect to ${ctx.baseURL}: connection refused. The server is not running or not reachable at this address.`
  } else if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') {
    message = `Could not resolve the host of ${ctx.baseURL}. Check the base URL and the network connection.`
  } else if (
    code === 'ETIMEDOUT' ||
    code === 'UND_ERR_CONNECT_TIMEOUT' ||
    err instanceof APIConnectionTimeoutError
  ) {
    message = `The connection to ${ctx.baseURL} timed out. The server is not reachable or too slow to answer.`
  } else if (
    err instanceof APIConnectionError &&
    code === undefined &&
    !/terminated|closed|reset/i.test(detail)
  ) {
    message = `Could not reach ${ctx.baseURL}: ${detail || 'connection error'}. The server is not running or not reachable.`
  } else {
    message = `The connection to ${ctx.baseURL} was interrupted (${detail || code || 'network error'}).`
  }
  return new LlmError('network', message, init)
}

/** Any thrown value → LlmError (LlmErrors pass through unchanged). */
export function toLlmError(err: unknown, ctx: ErrorContext): LlmError {
  if (err instanceof LlmError) return err
  if (err instanceof APIConnectionError || (!(err instanceof APIError) && isNetworkError(err))) {
    return connectionError(err, ctx)
  }
  if (err instanceof APIError) {
    if (typeof err.status === 'number') return httpError(err, err.status, ctx)
    return streamError(err, null, ctx, null)
  }
  if (err instanceof SyntaxError) {
    return new LlmError(
      'unknown',
      `${ctx.baseURL} sent a malformed stream chunk (${err.message}).`,
      {
        cause: err,
        partial: ctx.partial,
      },
    )
  }
  const message = err instanceof Error ? err.message : String(err)
  return new LlmError('unknown', message || 'Unknown error', { cause: err, partial: ctx.partial })
}

/** An HTTP status, wherever a provider put it: a number, or a string of three digits. */
function statusIn(v: unknown): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^\d{3}$/.test(v) ? Number(v) : NaN
  return Number.isInteger(n) && n >= 400 && n < 600 ? n : undefined
}

/**
 * The status an in-stream error carries: `error.code` (OpenRouter), `error.status_code` or a
 * top-level `status_code` (Groq), `error.status`, or `error.metadata.status`.
 */
function inStreamStatus(
  error: Record<string, unknown> | null,
  event: Record<string, unknown> | null,
): number | undefined {
  const meta = error?.['metadata']
  const candidates: unknown[] = [
    error?.['status_code'],
    error?.['status'],
    error?.['code'],
    event?.['status_code'],
    event?.['status'],
    meta !== null && typeof meta === 'object'
      ? (meta as Record<string, unknown>)['status']
      : undefined,
  ]
  for (const c of candidates) {
    const s = statusIn(c)
    if (s !== undefined) return s
  }
  return undefined
}

/** An `{"error": …}` event inside a stream → LlmError; after a finish_reason it is never retried. */
function streamError(
  err: APIError,
  event: Record<string, unknown> | null,
  ctx: ErrorContext,
  finishReason: string | null,
): LlmError {
  const body =
    err.error !== null && typeof err.error === 'object'
      ? (err.error as Record<string, unknown>)
      : null
  const status = inStreamStatus(body, event)
  const msg = serverMessage(err) || 'unknown error'
  const after =
    finishReason !== null ? ` after the answer ended (finish reason "${finishReason}")` : ''
  if (status !== undefined) {
    const e = httpError(err, status, ctx)
    const message = after ? `${ctx.baseURL} reported an error${after}: ${msg}` : e.message
    return new LlmError(e.code, message, {
      status,
      retryable: e.retryable && finishReason === null,
      ...(e.retryAfterMs !== undefined ? { retryAfterMs: e.retryAfterMs } : {}),
      cause: err,
      partial: ctx.partial,
    })
  }
  return new LlmError('server', `${ctx.baseURL} reported an error in the stream${after}: ${msg}`, {
    retryable: finishReason === null,
    cause: err,
    partial: ctx.partial,
  })
}

/**
 * What a finished stream reported as an error, if anything: an `{"error": …}` event (seen by
 * the SDK as `failure`, with the raw event from the body for its status) or Groq's
 * `x_groq.error`. Null when the stream reported none.
 */
export function inStreamError(
  failure: unknown,
  event: Record<string, unknown> | null,
  providerError: string | null,
  ctx: ErrorContext & { finishReason: string | null },
): LlmError | null {
  if (
    failure instanceof APIError &&
    failure.status === undefined &&
    !(failure instanceof APIConnectionError) &&
    !(failure instanceof APIUserAbortError)
  ) {
    return streamError(failure, event, ctx, ctx.finishReason)
  }
  if (providerError !== null) {
    const after =
      ctx.finishReason !== null
        ? ` after the answer ended (finish reason "${ctx.finishReason}")`
        : ''
    return new LlmError(
      'server',
      `${ctx.baseURL} reported an error in the stream${after}: ${providerError}`,
      {
        retryable: ctx.finishReason === null,
        partial: ctx.partial,
      },
    )
  }
  return null
}

/**
 * A successful answer whose body is not an event stream (an HTML page from a proxy or a
 * login portal, a JSON error): a provider error with the status and the body's first line.
 * Retrying gets the same page.
 */
export function notAnEventStream(
  status: number,
  contentType: string,
  head: string,
  ctx: ErrorContext,
): LlmError {
  let said = head.trimStart().split(/\r?\n/, 1)[0] ?? ''
  try {
    const parsed: unknown = JSON.parse(head)
    const e =
      parsed !== null && typeof parsed === 'object'
        ? (parsed as { error?: unknown }).error
        : undefined
    const m = e !== null && typeof e === 'object' ? (e as { message?: unknown }).message : e
    if (typeof m === 'string' && m !== '') said = m
  } catch {
    // not (all) JSON: the first line says it
  }
  if (said.length > 200) said = `${said.slice(0, 200)}…`
  const type = contentType.split(';')[0]?.trim() || 'no content type'
  return new LlmError(
    'bad_response',
    `${ctx.baseURL} answered ${status} (${type}) with something that is not an event stream: ${said || '(empty)'}`,
    { status, retryable: false, partial: ctx.partial },
  )
}

function isLoopback(baseURL: string): boolean {
  const host = URL.parse(baseURL)?.hostname.replace(/^\[|\]$/g, '')
  return host === 'localhost' || host === '::1' || (host !== undefined && /^127\./.test(host))
}

function origin(baseURL: string): string {
  return URL.parse(baseURL)?.origin ?? baseURL
}

/** The usual local servers by their default port. */
const LOCAL_PORTS: Record<string, string> = {
  '11434': 'Ollama',
  '1234': 'LM Studio',
  '8080': 'llama.cpp',
  '8000': 'vLLM',
}

/** Which local server a loopback URL is most likely for (by its default port), or undefined. */
export function localServerKind(baseURL: string): string | undefined {
  const url = URL.parse(baseURL)
  return url ? LOCAL_PORTS[url.port] : undefined
}

/** `The server asked to wait 120 s (try again after 14:05:10)` */
export function retryAfterTooLongMessage(ms: number, now = Date.now()): string {
  const at = new Date(now + ms)
  const pad = (n: number): string => String(n).padStart(2, '0')
  const clock = `${pad(at.getHours())}:${pad(at.getMinutes())}:${pad(at.getSeconds())}`
  return `The server asked to wait ${Math.ceil(ms / 1000)} s (try again after ${clock}).`
}
