/**
 * One OpenAI-compatible endpoint, through the official SDK: one streamed attempt at a time
 * (retries live in `retry.ts`), normalized into one internal stream of deltas and one result.
 */
import OpenAI from 'openai'
import type {
  ChatCompletionChunk,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionCreateParamsStreaming,
} from 'openai/resources/chat/completions'
import type { Stream } from 'openai/streaming'
import { BodyTap } from './body-tap'
import { inStreamError, notAnEventStream, toLlmError, isStreamOptionsRejection } from './errors'
import { messageChars, toolChars } from './estimate'
import { IdleWatchdog } from './idle-watchdog'
import { StreamNormalizer } from './stream-normalizer'
export { DEFAULT_MAX_ANSWER_CHARS } from './stream-normalizer'
import { abortedError, idleTimeoutError, interruptedError, streamResult } from './stream-end'
import { AbortReason, LlmError, abortKindOf } from './types'
import type { ChatRequest, CompletionResult, LlmEndpoint, StreamDelta } from './types'
import type { Usage } from '../../../src-preload/contract/dto'
import type { Fetch } from '../ports'

export interface StreamOptions {
  /** the turn's signal; its reason is an AbortReason('stop'|'deadline') */
  signal: AbortSignal
  /** called for each content / reasoning piece, in order */
  onDelta: (d: StreamDelta) => void
  /** watchdog: a stream that sends nothing for this long is dropped (default 90 s) */
  idleTimeoutMs?: number
  /** the size of the answer, every streamed part together (default 2 million characters) */
  maxAnswerChars?: number
}

export const DEFAULT_IDLE_TIMEOUT_MS = 90_000

/** How long to wait for the model list when explaining a model-not-found error. */
const LIST_MODELS_TIMEOUT_MS = 10_000
/** The SDK's own timeout, only for reaching the response headers: effectively off (the watchdog decides). */
const SDK_TIMEOUT_MS = 24 * 60 * 60 * 1000
/** Body keys the client owns; `params` cannot override them. */
const RESERVED_KEYS = new Set(['model', 'messages', 'stream', 'stream_options'])

/** Endpoints (by base URL) that rejected `stream_options`; we stop sending it to them. */
const rejectsStreamOptions = new Set<string>()

/** For tests: forget which endpoints rejected `stream_options`. */
export function resetStreamOptionsMemory(): void {
  rejectsStreamOptions.clear()
}

export class LlmClient {
  readonly baseURL: string
  private readonly sdk: OpenAI
  private readonly fetchImpl: Fetch

  constructor(endpoint: LlmEndpoint, opts: { fetch: Fetch }) {
    this.baseURL = endpoint.baseURL.replace(/\/+$/, '')
    this.fetchImpl = opts.fetch
    const headers: Record<string, string | null> = { ...endpoint.headers }
    const hasKey = typeof endpoint.apiKey === 'string' && endpoint.apiKey !== ''
    // no key: the SDK wants one, so it gets a dummy, and the header it would make is removed
    if (!hasKey && !Object.keys(headers).some((k) => k.toLowerCase() === 'authorization')) {
      headers['Authorization'] = null
    }
    this.sdk = new OpenAI({
      baseURL: this.baseURL,
      apiKey: hasKey ? endpoint.apiKey : 'not-needed',
      organization: null,
      project: null,
      adminAPIKey: null,
      webhookSecret: null,
      maxRetries: 0,
      timeout: SDK_TIMEOUT_MS,
      defaultHeaders: headers,
      fetch: opts.fetch,
    })
  }

  /** The exact JSON body that streamChat will send for this request (for the turn log). */
  buildBody(req: ChatRequest): Record<string, unknown> {
    const body: Record<string, unknown> = { model: req.model, messages: req.messages }
    if (req.tools && req.tools.length > 0) body['tools'] = req.tools
    if (req.params) {
      for (const key of Object.keys(req.params)) {
        if (!RESERVED_KEYS.has(key)) body[key] = req.params[key]
      }
    }
    body['stream'] = true
    if (!rejectsStreamOptions.has(this.baseURL)) body['stream_options'] = { include_usage: true }
    return body
  }

  /**
   * ONE attempt. Resolves only for a complete stream (a finish_reason arrived, or the server
   * ended it with `data: [DONE]`); otherwise throws an LlmError (with `partial` = what was
   * streamed). An error the server reports inside the stream is thrown even after a
   * finish_reason.
   */
  async streamChat(req: ChatRequest, opts: StreamOptions): Promise<CompletionResult> {
    const startedAt = performance.now()
    const outer = opts.signal
    const norm = new StreamNormalizer(opts.onDelta, startedAt, opts.maxAnswerChars)
    norm.inputChars = messageChars(req.messages) + toolChars(req.tools)
    if (outer.aborted) throw abortedError(outer, norm)

    const controller = new AbortController()
    const onOuterAbort = (): void => controller.abort(outer.reason)
    outer.addEventListener('abort', onOuterAbort, { once: true })
    const idleTimeoutMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
    const watchdog = new IdleWatchdog(idleTimeoutMs, () =>
      controller.abort(new AbortReason('watchdog')),
    )
    const wire: Wire = { body: this.buildBody(req), tap: new BodyTap() }
    let failure: unknown = null
    try {
      const stream = await this.openStream(req, wire, controller.signal)
      await readStream(stream, norm, watchdog)
    } catch (err) {
      // over the cap: not a failure of the stream, and not worth another attempt; the rest
      // is not downloaded
      if (err instanceof LlmError && err.code === 'answer_too_long') {
        controller.abort(new AbortReason('stop'))
        throw err
      }
      failure = err
    } finally {
      watchdog.stop()
      outer.removeEventListener('abort', onOuterAbort)
    }
    norm.end()

    if (outer.aborted) throw abortedError(outer, norm)
    await this.throwIfIncomplete(req, { norm, wire, failure, watchdog, idleTimeoutMs, outer })
    // `[DONE]` without a finish_reason (Snowflake Cortex): the server says the answer is whole
    return streamResult(norm, startedAt, wire.body, (out) =>
      out.toolCalls.length > 0 ? 'tool_calls' : 'stop',
    )
  }

  /**
   * Opens the stream; a server that rejects `stream_options` is remembered and asked again
   * without it (`wire` then holds the second body and its tap).
   */
  private async openStream(
    req: ChatRequest,
    wire: Wire,
    signal: AbortSignal,
  ): Promise<Stream<ChatCompletionChunk>> {
    try {
      return await this.open(wire.body, signal, wire.tap)
    } catch (err) {
      if (!isStreamOptionsRejection(err) || !('stream_options' in wire.body) || signal.aborted)
        throw err
      rejectsStreamOptions.add(this.baseURL)
      wire.body = this.buildBody(req)
      wire.tap = new BodyTap()
      return await this.open(wire.body, signal, wire.tap)
    }
  }

  /**
   * Throws the error that ended a stream before its answer was whole: one the server
   * reported, a stall, a failure of the request, a body that is no event stream, a drop.
   */
  private async throwIfIncomplete(req: ChatRequest, s: StreamEnd): Promise<void> {
    const { norm, wire, failure, watchdog } = s
    const ctx = { baseURL: this.baseURL, model: req.model }
    // an error the server put in the stream counts even after a finish_reason (OpenRouter:
    // `length`, then "Token limit reached"): the answer it ended is not the whole story
    const reported = inStreamError(failure, wire.tap.lastErrorEvent(), norm.providerError, {
      ...ctx,
      partial: norm.partial(),
      finishReason: norm.finishReason,
    })
    if (reported) throw reported
    // a finish_reason or `[DONE]` is what makes a stream complete; a drop or a stall after a
    // finish_reason loses at most the usage chunk, so the answer stands
    if (norm.finishReason !== null || (wire.tap.sawDone && failure === null && !watchdog.fired))
      return
    const partial = norm.partial()
    if (watchdog.fired) throw idleTimeoutError(this.baseURL, s.idleTimeoutMs, partial)
    if (failure !== null) {
      const error = toLlmError(failure, { ...ctx, partial })
      if (error.code === 'model_not_found')
        throw await this.explainModelNotFound(req.model, error, s.outer)
      throw error
    }
    if (norm.chunks === 0 && !wire.tap.looksLikeEventStream()) {
      throw notAnEventStream(wire.tap.status ?? 200, wire.tap.contentType, wire.tap.headText(), ctx)
    }
    throw interruptedError(this.baseURL, partial)
  }

  /**
   * One non-streamed completion (a summary, a title): the answer's text and usage. No
   * retries, no tools. Throws an LlmError.
   */
  async complete(
    req: ChatRequest,
    signal: AbortSignal,
  ): Promise<{ content: string; usage: Usage | null; requestBody: Record<string, unknown> }> {
    const body: Record<string, unknown> = { ...this.buildBody(req), stream: false }
    delete body['stream_options']
    try {
      const res = (await this.sdk.chat.completions.create(
        body as unknown as ChatCompletionCreateParamsNonStreaming,
        { signal },
      )) as { choices?: { message?: { content?: unknown } }[]; usage?: Record<string, unknown> }
      const content = res.choices?.[0]?.message?.content
      if (typeof content !== 'string' || content.trim() === '') {
        throw new LlmError('bad_response', `${this.baseURL} answered with no text.`)
      }
      const u = res.usage
      const usage =
        u && typeof u['prompt_tokens'] === 'number' && typeof u['completion_tokens'] === 'number'
          ? {
              inputTokens: u['prompt_tokens'],
              outputTokens: u['completion_tokens'],
              estimated: false,
            }
          : null
      return { content, usage, requestBody: body }
    } catch (err) {
      if (signal.aborted) {
        throw new LlmError('aborted', 'Stopped.', { abortKind: abortKindOf(signal) ?? 'stop' })
      }
      throw toLlmError(err, { baseURL: this.baseURL, model: req.model })
    }
  }

  /** GET {baseURL}/models → sorted ids. */
  async listModels(signal?: AbortSignal): Promise<string[]> {
    try {
      const ids: string[] = []
      const page = await this.sdk.models.list(signal ? { signal } : undefined)
      for (const m of page.data) {
        if (typeof m?.id === 'string') ids.push(m.id)
      }
      return ids.sort()
    } catch (err) {
      throw toLlmError(err, { baseURL: this.baseURL, model: '' })
    }
  }

  private open(
    body: Record<string, unknown>,
    signal: AbortSignal,
    tap: BodyTap,
  ): Promise<Stream<ChatCompletionChunk>> {
    // the body goes out as built (extra dialect fields included); the SDK only serializes it.
    // The tap sees the raw bytes the SDK hides (`[DONE]`, a body that is not an event stream).
    return this.sdk
      .withOptions({ fetch: tap.wrap(this.fetchImpl) })
      .chat.completions.create(body as unknown as ChatCompletionCreateParamsStreaming, {
        signal,
      })
  }

  private async explainModelNotFound(
    model: string,
    error: LlmError,
    outer: AbortSignal,
  ): Promise<LlmError> {
    const init = { status: error.status, cause: error.cause, partial: error.partial }
    let message: string
    try {
      const ids = await this.listModels(
        AbortSignal.any([outer, AbortSignal.timeout(LIST_MODELS_TIMEOUT_MS)]),
      )
      const shown =
        ids.length > 40
          ? `${ids.slice(0, 40).join(', ')}, … (${ids.length - 40} more)`
          : ids.join(', ')
      message =
        ids.length > 0
          ? `Model '${model}' was not found on ${this.baseURL}; available: ${shown}`
          : `Model '${model}' was not found on ${this.baseURL}; the server lists no models.`
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err)
      message = `Model '${model}' was not found on ${this.baseURL} (the list of available models could not be fetched: ${why})`
    }
    return new LlmError('model_not_found', message, init)
  }
}

/** the body sent and the tap that watches its response */
interface Wire {
  body: Record<string, unknown>
  tap: BodyTap
}

/** how a stream ended: what was read, what failed, and whether it stalled */
interface StreamEnd {
  norm: StreamNormalizer
  wire: Wire
  failure: unknown
  watchdog: IdleWatchdog
  idleTimeoutMs: number
  outer: AbortSignal
}

/** Reads the chunks into the normalizer; past the answer's cap, `push` throws and the call ends. */
async function readStream(
  stream: Stream<ChatCompletionChunk>,
  norm: StreamNormalizer,
  watchdog: IdleWatchdog,
): Promise<void> {
  watchdog.touch()
  // the SDK's iterator ends quietly when the request is aborted: the caller checks
  for await (const chunk of stream) {
    watchdog.touch()
    norm.push(chunk)
  }
}
