/**
 * A scripted OpenAI-compatible server for tests: a plain `node:http` server on 127.0.0.1
 * that answers `POST /v1/chat/completions` with queued replies (real SSE over real HTTP)
 * and `GET /v1/models` with a mutable list. Like a strict provider, it can reject
 * histories whose tool calls are not answered (see `validateStrict`).
 */
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

export interface RecordedRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read freely in tests
  body: any
}

/** A raw chat.completion.chunk object; the server fills id/object/created/model when missing. */
export type Chunk = Record<string, unknown>

/**
 * One thing written to an SSE stream:
 * - a chunk (written as `data: {json}\n\n`),
 * - `{ raw }`: a string written as is,
 * - `{ delayMs }`: a pause,
 * - `{ split, atByte?, pauseMs? }` (addition): a chunk whose serialized SSE bytes are written in
 *   two TCP writes, cut at byte `atByte` (default: inside the first multi-byte UTF-8 character of
 *   the line, else in the middle), with a pause of `pauseMs` (default 25) in between.
 */
export type SseItem =
  | Chunk
  | { raw: string }
  | { delayMs: number }
  | { split: Chunk; atByte?: number; pauseMs?: number }

export type Reply =
  | { type: 'sse'; items: SseItem[]; end?: 'done' | 'drop' | 'hang' | 'end-without-done' }
  | { type: 'http'; status: number; body: unknown; headers?: Record<string, string> }

export type Handler = Reply | ((req: RecordedRequest) => Reply | Promise<Reply>)

export interface ScriptedServer {
  /** http://127.0.0.1:<port>/v1 */
  baseURL: string
  /** every POST /v1/chat/completions received, in order (also the rejected ones) */
  requests: RecordedRequest[]
  /** each POST /chat/completions consumes one, in order */
  enqueue(...handlers: Handler[]): void
  /** used when the queue is empty; default: HTTP 500 {error:{message:'no scripted reply'}} */
  setFallback(h: Handler | null): void
  /** GET /v1/models serves these (mutable) */
  models: string[]
  /** (addition) when set, GET /v1/models answers with this instead of the list */
  modelsReply: Reply | null
  /** (addition) how many GET /v1/models requests were received */
  modelsRequests: number
  /** closes everything including hanging streams */
  close(): Promise<void>
}

export interface ScriptedServerOptions {
  models?: string[]
  /** reject histories a strict provider would reject (default true) */
  strict?: boolean
  /** answer 400 to any request that has `stream_options` */
  rejectStreamOptions?: boolean
  /** require `Authorization: Bearer <apiKey>` */
  apiKey?: string
}

type Usage = {
  prompt_tokens: number
  completion_tokens: number
  /** what OpenAI and OpenRouter add: cached input, reasoning output */
  prompt_tokens_details?: { cached_tokens: number }
  completion_tokens_details?: { reasoning_tokens: number }
}

const DEFAULT_FALLBACK: Reply = {
  type: 'http',
  status: 500,
  body: { error: { message: 'no scripted reply', type: 'server_error', code: null } },
}

export async function startScriptedServer(
  opts: ScriptedServerOptions = {},
): Promise<ScriptedServer> {
  const strict = opts.strict ?? true
  const queue: Handler[] = []
  let fallback: Handler | null = null
  const sockets = new Set<Socket>()
  let chunkSeq = 0

  const httpServer = createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) {
        sendJson(res, 500, { error: { message: `scripted server error: ${String(err)}` } })
      } else {
        res.destroy()
      }
    })
  })
  httpServer.on('connection', (socket) => {
    socket.setNoDelay(true)
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
  })

  const server: ScriptedServer = {
    baseURL: '',
    requests: [],
    models: [...(opts.models ?? ['scripted-model'])],
    modelsReply: null,
    modelsRequests: 0,
    enqueue: (...handlers) => {
      queue.push(...handlers)
    },
    setFallback: (h) => {
      fallback = h
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        httpServer.close(() => resolve())
        httpServer.closeAllConnections()
      }),
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    const path = url.pathname.replace(/\/+$/, '')
    const rawBody = await readBody(req)

    if (opts.apiKey !== undefined && req.headers['authorization'] !== `Bearer ${opts.apiKey}`) {
      if (req.method === 'POST' && path === '/v1/chat/completions') {
        server.requests.push(record(req, path, rawBody))
      }
      sendJson(
        res,
        401,
        errorBody('Incorrect API key provided.', 'invalid_request_error', 'invalid_api_key'),
      )
      return
    }

    if (req.method === 'GET' && path === '/v1/models') {
      server.modelsRequests++
      if (server.modelsReply) {
        await sendReply(res, server.modelsReply, 'scripted-model')
        return
      }
      sendJson(res, 200, {
        object: 'list',
        data: server.models.map((id) => ({
          id,
          object: 'model',
          created: 0,
          owned_by: 'scripted',
        })),
      })
      return
    }

    if (req.method !== 'POST' || path !== '/v1/chat/completions') {
      sendJson(res, 404, errorBody(`no route for ${req.method ?? '?'} ${path}`, 'not_found', null))
      return
    }

    const recorded = record(req, path, rawBody)
    server.requests.push(recorded)
    const body: unknown = recorded.body
    if (!isObject(body)) {
      sendJson(
        res,
        400,
        errorBody('The request body is not a JSON object.', 'invalid_request_error', null),
      )
      return
    }
    if (opts.rejectStreamOptions && 'stream_options' in body) {
      sendJson(res, 400, {
        error: { message: 'Unrecognized request argument supplied: stream_options' },
      })
      return
    }
    if (strict) {
      const problem = validateStrict(body['messages'])
      if (problem) {
        sendJson(res, 400, errorBody(problem, 'invalid_request_error', null, 'messages'))
        return
      }
    }

    const handler = queue.shift() ?? fallback ?? DEFAULT_FALLBACK
    const reply = typeof handler === 'function' ? await handler(recorded) : handler
    const model = typeof body['model'] === 'string' ? body['model'] : 'scripted-model'
    await sendReply(res, reply, model)
  }

  async function sendReply(res: ServerResponse, reply: Reply, model: string): Promise<void> {
    // the client may have gone away while a handler was thinking
    if (res.destroyed || !res.socket || res.socket.destroyed) return
    if (reply.type === 'http') {
      const isText = typeof reply.body === 'string'
      res.writeHead(reply.status, {
        'content-type': isText ? 'text/plain; charset=utf-8' : 'application/json',
        ...reply.headers,
      })
      res.end(isText ? (reply.body as string) : JSON.stringify(reply.body))
      return
    }
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    })
    res.flushHeaders()
    for (const item of reply.items) {
      if (res.destroyed) return
      if (
        'delayMs' in item &&
        typeof item['delayMs'] === 'number' &&
        Object.keys(item).length === 1
      ) {
        await sleep(item['delayMs'])
      } else if (
        'raw' in item &&
        typeof item['raw'] === 'string' &&
        Object.keys(item).length === 1
      ) {
        await write(res, item['raw'])
      } else if ('split' in item && isObject(item['split'])) {
        const bytes = Buffer.from(sseLine(fill(item['split'], model)), 'utf8')
        const at = typeof item['atByte'] === 'number' ? item['atByte'] : splitPoint(bytes)
        await write(res, bytes.subarray(0, at))
        await sleep(typeof item['pauseMs'] === 'number' ? item['pauseMs'] : 25)
        await write(res, bytes.subarray(at))
      } else {
        await write(res, sseLine(fill(item as Chunk, model)))
      }
    }
    const end = reply.end ?? 'done'
    if (end === 'done') {
      await write(res, 'data: [DONE]\n\n')
      res.end()
    } else if (end === 'end-without-done') {
      res.end()
    } else if (end === 'drop') {
      // let the written bytes leave before the socket goes away
      await sleep(10)
      res.socket?.destroy()
    } else {
      await new Promise<void>((resolve) => {
        if (res.destroyed || res.socket?.destroyed) resolve()
        res.on('close', () => resolve())
      })
    }
  }

  function fill(chunk: Chunk, model: string): Chunk {
    return {
      id: `chatcmpl-scripted-${++chunkSeq}`,
      object: 'chat.completion.chunk',
      created: 1_700_000_000,
      model,
      ...chunk,
    }
  }

  await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', () => resolve()))
  const address = httpServer.address()
  if (!address || typeof address === 'string') throw new Error('scripted server has no port')
  server.baseURL = `http://127.0.0.1:${address.port}/v1`
  return server
}

// ---------------------------------------------------------------------------------------------
// strict validation

/**
 * What a strict provider (OpenAI, Mistral, …) rejects: an assistant tool call without a `tool`
 * answer right after it, an orphan tool message, tool-call arguments that are not a JSON
 * string, a tool message whose content is not a string or an array of text parts.
 * Returns the problem, or null when the history is valid.
 */
export function validateStrict(messages: unknown): string | null {
  if (!Array.isArray(messages)) return "'messages' must be an array."
  const pending: { id: string; at: number }[] = []
  for (let i = 0; i < messages.length; i++) {
    const m: unknown = messages[i]
    if (!isObject(m)) return `messages[${i}] is not an object.`
    const role = m['role']
    if (role === 'tool') {
      const id = m['tool_call_id']
      const k = pending.findIndex((p) => p.id === id)
      if (typeof id !== 'string' || k < 0) {
        return `messages[${i}]: tool message with tool_call_id '${String(id)}' does not answer any preceding unanswered tool call (orphan tool message).`
      }
      pending.splice(k, 1)
      const content = m['content']
      const ok =
        typeof content === 'string' ||
        (Array.isArray(content) &&
          content.every(
            (p: unknown) => isObject(p) && p['type'] === 'text' && typeof p['text'] === 'string',
          ))
      if (!ok) {
        return `messages[${i}]: the content of a tool message must be a string or an array of text parts.`
      }
      continue
    }
    if (pending.length > 0) {
      const ids = pending.map((p) => `'${p.id}' (messages[${p.at}])`).join(', ')
      return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Unanswered: ${ids}, before messages[${i}] (role ${String(role)}).`
    }
    if (role === 'assistant' && Array.isArray(m['tool_calls'])) {
      const calls: unknown[] = m['tool_calls']
      for (let k = 0; k < calls.length; k++) {
        const c = calls[k]
        const where = `messages[${i}].tool_calls[${k}]`
        if (!isObject(c) || typeof c['id'] !== 'string' || c['id'] === '') {
          return `${where} has no id.`
        }
        const fn = c['function']
        if (!isObject(fn) || typeof fn['name'] !== 'string') return `${where} has no function name.`
        const args = fn['arguments']
        if (typeof args !== 'string') return `${where}.function.arguments must be a JSON string.`
        try {
          JSON.parse(args)
        } catch {
          return `${where}.function.arguments is not valid JSON: ${JSON.stringify(args.slice(0, 80))}`
        }
        pending.push({ id: c['id'], at: i })
      }
    }
  }
  if (pending.length > 0) {
    const ids = pending.map((p) => `'${p.id}' (messages[${p.at}])`).join(', ')
    return `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. Unanswered: ${ids}.`
  }
  return null
}

// ---------------------------------------------------------------------------------------------
// builders

const DEFAULT_CHUNK = 4
const DEFAULT_FRAGMENT = 6

function pieces(text: string, size: number): string[] {
  const n = Math.max(1, Math.floor(size))
  const out: string[] = []
  for (let i = 0; i < text.length; i += n) out.push(text.slice(i, i + n))
  return out
}

function usageChunk(usage: Usage): Chunk {
  return {
    choices: [],
    usage: { ...usage, total_tokens: usage.prompt_tokens + usage.completion_tokens },
  }
}

function defaultUsage(outputChars: number): Usage {
  return { prompt_tokens: 10, completion_tokens: Math.max(1, Math.ceil(outputChars / 4)) }
}

function deltaChunk(delta: Record<string, unknown>, finishReason: string | null = null): Chunk {
  return { choices: [{ index: 0, delta, finish_reason: finishReason }] }
}

/** Plain text, `chunkSize` characters per chunk (default 4). */
export function textReply(
  text: string,
  opts: {
    chunkSize?: number
    usage?: Usage | null
    finishReason?: string | null
    delayMs?: number
    field?: 'content'
    /** how the stream ends (default: `data: [DONE]`) */
    end?: 'done' | 'end-without-done'
  } = {},
): Reply {
  const finish = opts.finishReason === undefined ? 'stop' : opts.finishReason
  const items: SseItem[] = [deltaChunk({ role: 'assistant', content: '' })]
  const parts = text === '' ? [''] : pieces(text, opts.chunkSize ?? DEFAULT_CHUNK)
  parts.forEach((p, i) => {
    if (opts.delayMs) items.push({ delayMs: opts.delayMs })
    const last = i === parts.length - 1
    items.push(deltaChunk(p === '' ? {} : { content: p }, last ? finish : null))
  })
  const usage = opts.usage === undefined ? defaultUsage(text.length) : opts.usage
  if (usage) items.push(usageChunk(usage))
  return { type: 'sse', items, ...(opts.end ? { end: opts.end } : {}) }
}

/**
 * A non-streamed completion (`stream: false`, as the summary and title calls ask): one
 * message of `text`, finished with `stop`.
 */
export function completionReply(
  text: string,
  opts: { id: string; model: string; usage?: Record<string, number> },
): Reply {
  return {
    type: 'http',
    status: 200,
    body: {
      id: opts.id,
      object: 'chat.completion',
      created: 1,
      model: opts.model,
      choices: [{ index: 0, message: { role: 'assistant', content: text }, finish_reason: 'stop' }],
      ...(opts.usage ? { usage: opts.usage } : {}),
    },
  }
}

/** Reasoning then text, in one of the three dialects. */
export function reasoningReply(
  reasoning: string,
  text: string,
  opts: {
    style: 'reasoning_content' | 'reasoning' | 'think-tags'
    chunkSize?: number
    usage?: Usage | null
  } = { style: 'reasoning_content' },
): Reply {
  const size = opts.chunkSize ?? DEFAULT_CHUNK
  const items: SseItem[] = [deltaChunk({ role: 'assistant', content: '' })]
  let contentParts: string[]
  if (opts.style === 'think-tags') {
    contentParts = pieces(`<think>${reasoning}</think>${text}`, size)
  } else {
    for (const p of pieces(reasoning, size))
      items.push(deltaChunk({ content: null, [opts.style]: p }))
    contentParts = text === '' ? [''] : pieces(text, size)
  }
  contentParts.forEach((p, i) => {
    items.push(
      deltaChunk(p === '' ? {} : { content: p }, i === contentParts.length - 1 ? 'stop' : null),
    )
  })
  const usage = opts.usage === undefined ? defaultUsage(reasoning.length + text.length) : opts.usage
  if (usage) items.push(usageChunk(usage))
  return { type: 'sse', items }
}

/**
 * Tool calls, streamed as fragments like OpenAI does (id and name on the first fragment of each
 * call, arguments split every `fragmentSize` UTF-16 units, so an emoji may be cut in half), or
 * round-robin across calls with `interleave`, or Ollama style (`ollama`: every call complete in
 * one delta, without `index`, arguments as an object when they parse as one). A call without
 * `id` is sent without one. `splitMultibyte` (addition) writes every fragment chunk whose JSON
 * holds a multi-byte character in two TCP writes cut inside that character.
 */
export function toolCallsReply(
  calls: { id?: string; name: string; arguments: string }[],
  opts: {
    content?: string
    fragmentSize?: number
    interleave?: boolean
    ollama?: boolean
    finishReason?: 'tool_calls' | 'stop'
    usage?: Usage | null
    reasoning?: string
    splitMultibyte?: boolean
  } = {},
): Reply {
  const finish = opts.finishReason ?? 'tool_calls'
  const items: SseItem[] = [deltaChunk({ role: 'assistant', content: '' })]
  if (opts.reasoning) {
    for (const p of pieces(opts.reasoning, DEFAULT_CHUNK)) {
      items.push(deltaChunk({ content: null, reasoning_content: p }))
    }
  }
  if (opts.content) {
    for (const p of pieces(opts.content, DEFAULT_CHUNK)) items.push(deltaChunk({ content: p }))
  }
  const toolChunks: Chunk[] = []
  if (opts.ollama) {
    toolChunks.push(
      deltaChunk({
        tool_calls: calls.map((c) => ({
          ...(c.id !== undefined ? { id: c.id } : {}),
          type: 'function',
          function: { name: c.name, arguments: objectArgs(c.arguments) },
        })),
      }),
    )
  } else {
    const perCall: Record<string, unknown>[][] = calls.map((c, index) => {
      const frags: Record<string, unknown>[] = [
        {
          index,
          ...(c.id !== undefined ? { id: c.id } : {}),
          type: 'function',
          function: { name: c.name, arguments: '' },
        },
      ]
      for (const p of pieces(c.arguments, opts.fragmentSize ?? DEFAULT_FRAGMENT)) {
        if (p !== '') frags.push({ index, function: { arguments: p } })
      }
      return frags
    })
    if (opts.interleave) {
      const longest = Math.max(0, ...perCall.map((f) => f.length))
      for (let k = 0; k < longest; k++) {
        for (const frags of perCall) {
          const f = frags[k]
          if (f) toolChunks.push(deltaChunk({ tool_calls: [f] }))
        }
      }
    } else {
      for (const frags of perCall)
        for (const f of frags) toolChunks.push(deltaChunk({ tool_calls: [f] }))
    }
  }
  for (const c of toolChunks) {
    items.push(opts.splitMultibyte && hasMultibyte(JSON.stringify(c)) ? { split: c } : c)
  }
  items.push(deltaChunk({}, finish))
  const outChars = (opts.content ?? '').length + calls.reduce((n, c) => n + c.arguments.length, 0)
  const usage = opts.usage === undefined ? defaultUsage(outChars) : opts.usage
  if (usage) items.push(usageChunk(usage))
  return { type: 'sse', items }
}

/** Keeps the first N items that write something (pauses in between are kept too), then destroys the socket. */
export function dropAfter(reply: Reply, itemCount: number): Reply {
  if (reply.type !== 'sse') return reply
  const items: SseItem[] = []
  let kept = 0
  for (const item of reply.items) {
    const isPause = 'delayMs' in item && Object.keys(item).length === 1
    if (!isPause) {
      if (kept >= itemCount) break
      kept++
    }
    items.push(item)
  }
  return { type: 'sse', items, end: 'drop' }
}

/** An OpenAI-style error reply: `{error:{message,type,code}}`. */
export function httpError(
  status: number,
  message: string,
  headers?: Record<string, string>,
): Reply {
  const type =
    status === 401
      ? 'invalid_request_error'
      : status === 429
        ? 'rate_limit_error'
        : status >= 500
          ? 'server_error'
          : 'invalid_request_error'
  return {
    type: 'http',
    status,
    body: errorBody(message, type, null),
    ...(headers ? { headers } : {}),
  }
}

// ---------------------------------------------------------------------------------------------
// helpers

function errorBody(message: string, type: string, code: string | null, param?: string): unknown {
  return { error: { message, type, code, ...(param ? { param } : {}) } }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

function objectArgs(args: string): unknown {
  try {
    const parsed: unknown = JSON.parse(args)
    return isObject(parsed) ? parsed : args
  } catch {
    return args
  }
}

function hasMultibyte(s: string): boolean {
  return Buffer.byteLength(s, 'utf8') !== s.length
}

/** A byte offset inside the first multi-byte character, else the middle. */
function splitPoint(bytes: Buffer): number {
  for (let i = 0; i < bytes.length; i++) {
    if ((bytes[i] ?? 0) >= 0xc0) return i + 1
  }
  return Math.floor(bytes.length / 2)
}

function sseLine(chunk: Chunk): string {
  return `data: ${JSON.stringify(chunk)}\n\n`
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function write(res: ServerResponse, data: string | Uint8Array): Promise<void> {
  return new Promise<void>((resolve) => {
    if (res.destroyed) {
      resolve()
      return
    }
    res.write(data, () => resolve())
  })
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = []
    req.on('data', (b: Buffer) => parts.push(b))
    req.on('end', () => resolve(Buffer.concat(parts).toString('utf8')))
    req.on('error', reject)
  })
}

function record(req: IncomingMessage, path: string, rawBody: string): RecordedRequest {
  let body: unknown = rawBody
  if (rawBody !== '') {
    try {
      body = JSON.parse(rawBody)
    } catch {
      body = rawBody
    }
  } else {
    body = null
  }
  return { method: req.method ?? 'GET', path, headers: { ...req.headers }, body }
}

/** A slow answer: `words` chunks `w0 w1 …`, `delayMs` apart (for Stop, reload and signal tests). */
export function slowText(words: number, delayMs: number): Reply {
  const items: SseItem[] = []
  for (let i = 0; i < words; i++) {
    items.push({ choices: [{ index: 0, delta: { content: `w${i} ` }, finish_reason: null }] })
    items.push({ delayMs })
  }
  items.push({ choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })
  return { type: 'sse', items }
}

/** The content of the last tool message a request sent (what the model was told a tool returned). */
export function lastToolContent(req: RecordedRequest): string {
  const messages = (req.body as { messages: { role: string; content: string }[] }).messages
  return messages.filter((m) => m.role === 'tool').at(-1)?.content ?? ''
}
