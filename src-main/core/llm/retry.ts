/**
 * The only retry layer (the SDK's is off): retryable failures (network, 408/409/429/5xx, a
 * stream that dropped or stalled) are tried again with exponential backoff and jitter,
 * honouring the server's Retry-After up to a limit. Aborts are never retried.
 */
import type { LlmClient, StreamOptions } from './client'
import { retryAfterTooLongMessage } from './errors'
import { LlmError, abortKindOf } from './types'
import type {
  ChatRequest,
  CompletionResult,
  LlmPartial,
  RetryInfo,
  RetryPolicy,
  StreamDelta,
} from './types'

export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 500,
  maxRetryAfterMs: 60_000,
}

export interface RetryOptions extends StreamOptions {
  policy?: Partial<RetryPolicy>
  /** rejects when the signal aborts */
  sleep: (ms: number, signal: AbortSignal) => Promise<void>
  onRetry: (info: RetryInfo) => void
  /** for jitter, injectable for tests */
  random?: () => number
}

/** Backoff before retry number `retry` (1-based): base · 2^(retry-1), ±25 % jitter. */
export function backoffDelay(
  retry: number,
  baseDelayMs: number,
  random: () => number = Math.random,
): number {
  const exp = baseDelayMs * 2 ** (retry - 1)
  return Math.round(exp * (0.75 + 0.5 * random()))
}

export async function streamWithRetry(
  client: Pick<LlmClient, 'streamChat'>,
  req: ChatRequest,
  opts: RetryOptions,
): Promise<CompletionResult & { retries: RetryInfo[] }> {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, ...opts.policy }
  const maxAttempts = Math.max(1, Math.floor(policy.maxRetries) + 1)
  const retries: RetryInfo[] = []
  // what the latest attempt that streamed anything showed: kept when a later attempt fails
  // with nothing (the server died and never came back), so the answer seen is not lost
  let shown: LlmPartial | undefined

  for (let attempt = 1; ; attempt++) {
    const tried = await attemptOnce(client, req, opts)
    if ('result' in tried) return { ...tried.result, retries }
    let error = tried.error
    throwIfStopped(error, opts.signal)
    if (hasText(error.partial)) shown = error.partial
    else if (shown) error = withPartial(error, shown)
    if (!error.retryable) throw error
    if (attempt >= maxAttempts) throw attempt > 1 ? gaveUp(error, attempt) : error

    const delayMs = retryDelay(error, attempt, policy, opts.random ?? Math.random)
    const info: RetryInfo = {
      attempt: attempt + 1,
      maxAttempts,
      delayMs,
      reason: error.message,
      discardPartial: tried.emitted,
    }
    retries.push(info)
    opts.onRetry(info)
    await sleepBeforeRetry(delayMs, opts)
  }
}

/** One streamed attempt: its result, or its failure as an LlmError and whether it showed anything. */
async function attemptOnce(
  client: Pick<LlmClient, 'streamChat'>,
  req: ChatRequest,
  opts: RetryOptions,
): Promise<{ result: CompletionResult } | { error: LlmError; emitted: boolean }> {
  let emitted = false
  const onDelta = (d: StreamDelta): void => {
    emitted = true
    opts.onDelta(d)
  }
  try {
    const result = await client.streamChat(req, {
      signal: opts.signal,
      onDelta,
      ...(opts.idleTimeoutMs !== undefined ? { idleTimeoutMs: opts.idleTimeoutMs } : {}),
      ...(opts.maxAnswerChars !== undefined ? { maxAnswerChars: opts.maxAnswerChars } : {}),
    })
    return { result }
  } catch (err) {
    const error =
      err instanceof LlmError
        ? err
        : new LlmError('unknown', err instanceof Error ? err.message : String(err), {
            cause: err,
          })
    return { error, emitted }
  }
}

/** Aborts are never retried: a failure after the stop button (or the deadline) is a stop. */
function throwIfStopped(error: LlmError, signal: AbortSignal): void {
  if (signal.aborted && error.code !== 'aborted') {
    throw new LlmError('aborted', 'Stopped.', {
      abortKind: abortKindOf(signal) ?? 'stop',
      partial: error.partial ?? { content: '', reasoning: null },
      cause: error,
    })
  }
  if (error.code === 'aborted') throw error
}

/** The server's Retry-After (refused past the policy's limit), or the backoff. */
function retryDelay(
  error: LlmError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
): number {
  if (error.retryAfterMs === undefined) return backoffDelay(attempt, policy.baseDelayMs, random)
  if (error.retryAfterMs > policy.maxRetryAfterMs) {
    throw new LlmError(
      'retry_after_too_long',
      `${retryAfterTooLongMessage(error.retryAfterMs)} ${error.message}`,
      {
        status: error.status,
        retryAfterMs: error.retryAfterMs,
        partial: error.partial,
        cause: error,
      },
    )
  }
  return Math.ceil(error.retryAfterMs)
}

async function sleepBeforeRetry(delayMs: number, opts: RetryOptions): Promise<void> {
  try {
    await opts.sleep(delayMs, opts.signal)
  } catch (err) {
    // the UI has already dropped what the failed attempt showed
    throw new LlmError('aborted', 'Stopped while waiting to retry.', {
      abortKind: abortKindOf(opts.signal) ?? 'stop',
      partial: { content: '', reasoning: null },
      cause: err,
    })
  }
  if (opts.signal.aborted) {
    throw new LlmError('aborted', 'Stopped while waiting to retry.', {
      abortKind: abortKindOf(opts.signal) ?? 'stop',
      partial: { content: '', reasoning: null },
    })
  }
}

const hasText = (p: LlmPartial | undefined): p is LlmPartial =>
  p !== undefined && (p.content !== '' || (p.reasoning ?? '') !== '')

function withPartial(error: LlmError, partial: LlmPartial): LlmError {
  return new LlmError(error.code, error.message, {
    status: error.status,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    partial,
    abortKind: error.abortKind,
    cause: error.cause,
  })
}

function gaveUp(error: LlmError, attempts: number): LlmError {
  return new LlmError(error.code, `${error.message} (gave up after ${attempts} attempts)`, {
    status: error.status,
    retryable: error.retryable,
    retryAfterMs: error.retryAfterMs,
    partial: error.partial,
    abortKind: error.abortKind,
    cause: error,
  })
}
