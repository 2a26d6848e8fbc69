/**
 * Ollama's native chat API (`POST /api/chat`, one JSON object per line), for what its
 * OpenAI-compatible endpoint cannot set (`num_ctx`, `keep_alive`, `think`). Each line is
 * checked, then read as the OpenAI chunk it corresponds to by the same `StreamNormalizer`
 * as every other server, so the agent sees the same deltas, tool calls, usage and finish.
 * One attempt per call, like `LlmClient.streamChat`: `streamWithRetry` retries it, and the
 * same abort signal and idle watchdog apply.
 */
import { APIError } from 'openai'
import { z } from 'zod'
import type { StreamOptions } from '../client'
import { DEFAULT_IDLE_TIMEOUT_MS } from '../client'
import { toLlmError } from '../errors'
import { messageChars } from '../estimate'
import { IdleWatchdog } from '../idle-watchdog'
import { serverRoot } from '../server-info/fetch-json'
import { StreamNormalizer } from '../stream-normalizer'
import { abortedError, idleTimeoutError, interruptedError, streamResult } from '../stream-end'
import { AbortReason, LlmError } from '../types'
import type { ChatRequest, CompletionResult, LlmEndpoint } from '../types'
import { toOllamaBody, type OllamaRequestOptions } from './ollama-request'
import type { Fetch } from '../../ports'

const OllamaLine = z.object({
  model: z.string().optional(),
  message: z
    .object({
      content: z.string().optional(),
      thinking: z.string().optional(),
      tool_calls: z
        .array(
          z.object({
            function: z.object({
              name: z.string(),
              arguments: z.union([z.record(z.string(), z.unknown()), z.string()]).optional(),
            }),
          }),
        )
        .nullable()
        .optional(),
    })
    .optional(),
  done: z.boolean().optional(),
  done_reason: z.string().optional(),
  prompt_eval_count: z.number().int().nonnegative().optional(),
  eval_count: z.number().int().nonnegative().optional(),
  error: z.string().optional(),
})
type OllamaLine = z.infer<typeof OllamaLine>

/** One line is one small JSON object; a line this long is not Ollama talking. */
const MAX_LINE_CHARS = 8_000_000

export class OllamaNativeClient {
  /** the OpenAI-compatible base URL it was given (for messages and the turn log) */
  readonly baseURL: string
  private readonly root: string
  private readonly headers: Record<string, string>
  private readonly fetchImpl: Fetch

  constructor(
    endpoint: LlmEndpoint,
    private readonly options: OllamaRequestOptions,
    opts: { fetch: Fetch },
  ) {
    this.baseURL = endpoint.baseURL.replace(/\/+$/, '')
    this.root = serverRoot(this.baseURL)
    this.headers = { ...endpoint.headers }
    const ownAuth = Object.keys(this.headers).some((k) => k.toLowerCase() === 'authorization')
    if (endpoint.apiKey && !ownAuth) this.headers['authorization'] = `Bearer ${endpoint.apiKey}`
    this.fetchImpl = opts.fetch
  }

  buildBody(req: ChatRequest): Record<string, unknown> {
    return toOllamaBody(req, this.options)
  }

  async streamChat(req: ChatRequest, opts: StreamOptions): Promise<CompletionResult> {
    const startedAt = performance.now()
    const outer = opts.signal
    const norm = new StreamNormalizer(opts.onDelta, startedAt, opts.maxAnswerChars)
    norm.inputChars = messageChars(req.messages)
    if (outer.aborted) throw abortedError(outer, norm)
    const ctx = { baseURL: this.baseURL, model: req.model }
    const idleMs = opts.idleTimeoutMs ?? DEFAULT_IDLE_TIMEOUT_MS
    const controller = new AbortController()
    const onOuterAbort = (): void => controller.abort(outer.reason)
    outer.addEventListener('abort', onOuterAbort, { once: true })
    const watchdog = new IdleWatchdog(idleMs, () => controller.abort(new AbortReason('watchdog')))

    const body = this.buildBody(req)
    const lines = new LineState(norm)
    let failure: unknown = null
    try {
      const res = await this.fetchImpl(`${this.root}/api/chat`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...this.headers },
        body: JSON.stringify(body),
        signal: controller.signal,
      })
      watchdog.touch()
      if (!res.ok) throw await httpFailure(res)
      if (!res.body) throw new LlmError('bad_response', `${this.baseURL}: the answer had no body.`)
      const decoder = new TextDecoder()
      let buffered = ''
      for await (const bytes of res.body as unknown as AsyncIterable<Uint8Array>) {
        watchdog.touch()
        buffered += decoder.decode(bytes, { stream: true })
        let nl: number
        while ((nl = buffered.indexOf('\n')) >= 0) {
          lines.read(buffered.slice(0, nl), this.baseURL)
          buffered = buffered.slice(nl + 1)
        }
        if (buffered.length > MAX_LINE_CHARS) {
          throw new LlmError(
            'bad_response',
            `${this.baseURL} sent a line of more than ${MAX_LINE_CHARS} characters; it is not an answer Cairn can read.`,
          )
        }
      }
      lines.read(buffered + decoder.decode(), this.baseURL)
    } catch (err) {
      failure = err
      // a line Cairn cannot read ends the answer: the rest is not downloaded
      controller.abort()
    } finally {
      watchdog.stop()
      outer.removeEventListener('abort', onOuterAbort)
    }
    norm.end()

    if (outer.aborted) throw abortedError(outer, norm)
    const partial = norm.partial()
    if (watchdog.fired) {
      throw idleTimeoutError(this.baseURL, idleMs, partial)
    }
    if (failure instanceof LlmError) throw withPartial(failure, partial)
    if (failure !== null) throw toLlmError(failure, { ...ctx, partial })
    if (!lines.done) {
      throw interruptedError(this.baseURL, partial)
    }
    return streamResult(norm, startedAt, body, () => 'stop')
  }
}

/** Reads the lines of one answer into the normalizer, as OpenAI chunks. */
class LineState {
  done = false
  private toolIndex = 0

  constructor(private readonly norm: StreamNormalizer) {}

  read(raw: string, baseURL: string): void {
    const text = raw.trim()
    if (text === '') return
    let json: unknown
    try {
      json = JSON.parse(text)
    } catch {
      throw new LlmError(
        'bad_response',
        `${baseURL} sent a line that is not JSON: ${text.slice(0, 120)}`,
      )
    }
    const parsed = OllamaLine.safeParse(json)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new LlmError(
        'bad_response',
        `${baseURL} sent a line Cairn does not understand (${issue?.path.join('.') || 'line'}: ${issue?.message ?? 'invalid'})`,
      )
    }
    const line = parsed.data
    if (line.error !== undefined) {
      throw new LlmError('server', `${baseURL} reported an error: ${line.error}`, {
        retryable: true,
      })
    }
    this.norm.push(this.chunk(line))
  }

  private chunk(line: OllamaLine): Record<string, unknown> {
    const m = line.message
    const delta: Record<string, unknown> = {}
    if (m?.content) delta['content'] = m.content
    if (m?.thinking) delta['reasoning'] = m.thinking
    if (m?.tool_calls && m.tool_calls.length > 0) {
      delta['tool_calls'] = m.tool_calls.map((c) => ({
        index: this.toolIndex++,
        type: 'function',
        function: { name: c.function.name, arguments: c.function.arguments ?? {} },
      }))
    }
    let finish: string | null = null
    if (line.done === true) {
      this.done = true
      finish = line.done_reason === 'length' ? 'length' : this.toolIndex > 0 ? 'tool_calls' : 'stop'
    }
    const chunk: Record<string, unknown> = {
      choices: [{ index: 0, delta, finish_reason: finish }],
    }
    if (line.model) chunk['model'] = line.model
    if (line.done === true && line.prompt_eval_count !== undefined && line.eval_count !== undefined)
      chunk['usage'] = {
        prompt_tokens: line.prompt_eval_count,
        completion_tokens: line.eval_count,
      }
    return chunk
  }
}

/** An HTTP error answer → the same LlmError the OpenAI path gives for that status. */
async function httpFailure(res: Response): Promise<APIError> {
  const text = await res.text().catch(() => '')
  let message = text.slice(0, 500)
  try {
    const body = JSON.parse(text) as { error?: unknown }
    if (typeof body.error === 'string') message = body.error
  } catch {
    // not JSON: its text is the message
  }
  return APIError.generate(res.status, { message }, message, res.headers)
}

function withPartial(e: LlmError, partial: ReturnType<StreamNormalizer['partial']>): LlmError {
  if (e.partial) return e
  return new LlmError(e.code, e.message, {
    status: e.status,
    retryable: e.retryable,
    retryAfterMs: e.retryAfterMs,
    partial,
    cause: e.cause,
  })
}
