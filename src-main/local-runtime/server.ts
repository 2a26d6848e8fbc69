/**
 * The local runtime's HTTP face: an OpenAI-compatible endpoint on 127.0.0.1, so that Cairn's
 * own client talks to it as to any other server (streaming, stop, usage, tool calls,
 * reasoning, the turn log, retries). Every request must carry the per-run secret. Routes:
 * `GET /v1/models` (each local model with its context window and what it takes) and
 * `POST /v1/chat/completions` (streamed or not).
 */
import { randomUUID, timingSafeEqual } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import type { LocalModel } from '../../src-preload/contract/local-models'
import type { LocalModelStore } from '../core/service-ports'
import {
  chatCompletionRequest,
  toChatHistory,
  toFunctions,
  type ChatCompletionRequest,
} from './chat-request'
import { RuntimeError, type GenerateOutput, type LocalEngine } from './engine'

/** the largest request body read (a long conversation with tool results) */
const MAX_BODY = 64 * 1024 * 1024

export interface RuntimeServerOptions {
  secret: string
  index: LocalModelStore
  engine: LocalEngine
  /** the largest context window the engine allocates */
  maxContext: number
}

function sendJson(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
  })
  res.end(text)
}

function sendError(res: http.ServerResponse, status: number, message: string, code: string): void {
  if (res.headersSent) {
    // in a stream: an error event the client reads as the server's
    res.end(`data: ${JSON.stringify({ error: { message, code } })}\n\n`)
    return
  }
  sendJson(res, status, { error: { message, type: code, code } })
}

function authorized(req: http.IncomingMessage, secret: string): boolean {
  const given = Buffer.from(req.headers.authorization ?? '')
  const wanted = Buffer.from(`Bearer ${secret}`)
  return given.length === wanted.length && timingSafeEqual(given, wanted)
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length
    if (size > MAX_BODY)
      throw new RuntimeError('The request is larger than 64 MB.', 413, 'too_large')
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function modelEntry(m: LocalModel, o: RuntimeServerOptions): Record<string, unknown> {
  const loaded = o.engine.loadedContext(o.index.filePath(m))
  return {
    id: m.name,
    object: 'model',
    created: Math.floor(m.addedAt / 1000),
    owned_by: 'cairn-local',
    // the window it runs with once loaded; before, the most it would be given
    context_length: loaded ?? Math.min(m.contextLength ?? 2048, o.maxContext),
    loaded: loaded !== null,
    capabilities: { tools: true, vision: false },
  }
}

function parseRequest(text: string): ChatCompletionRequest {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new RuntimeError('The request body is not JSON.', 400, 'bad_request')
  }
  const parsed = chatCompletionRequest.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw new RuntimeError(
      `The request is not one the local runtime reads: ${issue?.path.join('.') || 'body'}: ${issue?.message}`,
      400,
      'bad_request',
    )
  }
  return parsed.data
}

interface Streamer {
  text(t: string): void
  reasoning(t: string): void
  end(out: GenerateOutput): void
}

/** Writes chat.completion.chunk events as they come. */
function streamer(res: http.ServerResponse, req: ChatCompletionRequest): Streamer {
  const id = `chatcmpl-${randomUUID()}`
  const created = Math.floor(Date.now() / 1000)
  const chunk = (delta: Record<string, unknown>, finish: string | null): void => {
    if (!res.headersSent) {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' })
    }
    const body = {
      id,
      object: 'chat.completion.chunk',
      created,
      model: req.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    }
    res.write(`data: ${JSON.stringify(body)}\n\n`)
  }
  return {
    text: (t) => chunk({ content: t }, null),
    reasoning: (t) => chunk({ reasoning_content: t }, null),
    end: (out) => {
      if (out.toolCalls.length > 0) {
        chunk(
          {
            tool_calls: out.toolCalls.map((c, index) => ({
              index,
              id: `call_${randomUUID().replaceAll('-', '').slice(0, 24)}`,
              type: 'function',
              function: { name: c.name, arguments: c.arguments },
            })),
          },
          null,
        )
      }
      chunk({}, out.finishReason)
      if (req.stream_options?.include_usage) {
        const usage = {
          prompt_tokens: out.promptTokens,
          completion_tokens: out.completionTokens,
          total_tokens: out.promptTokens + out.completionTokens,
        }
        res.write(
          `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: req.model, choices: [], usage })}\n\n`,
        )
      }
      res.end('data: [DONE]\n\n')
    },
  }
}

async function chatCompletions(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  o: RuntimeServerOptions,
): Promise<void> {
  const body = parseRequest(await readBody(req))
  const model = o.index.get(body.model)
  if (!model) {
    throw new RuntimeError(
      `There is no local model "${body.model}". Add one in Settings › Models or with \`cairn models add <file.gguf>\`.`,
      404,
      'model_not_found',
    )
  }
  // a client that goes away (Stop, a closed window) stops the answer
  const abort = new AbortController()
  res.on('close', () => abort.abort(new Error('the client closed the request')))
  const stream = body.stream === true ? streamer(res, body) : null
  let text = ''
  let reasoning = ''
  const maxTokens = body.max_completion_tokens ?? body.max_tokens
  const out = await o.engine.generate({
    modelPath: o.index.filePath(model),
    history: toChatHistory(body.messages),
    functions: toFunctions(body),
    ...(body.temperature !== undefined ? { temperature: body.temperature } : {}),
    ...(body.top_p !== undefined ? { topP: body.top_p } : {}),
    ...(body.seed !== undefined ? { seed: body.seed } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
    ...(body.chat_template_kwargs?.enable_thinking !== undefined
      ? { thinking: body.chat_template_kwargs.enable_thinking }
      : {}),
    signal: abort.signal,
    onText: (t) => (stream ? stream.text(t) : (text += t)),
    onReasoning: (t) => (stream ? stream.reasoning(t) : (reasoning += t)),
  })
  if (abort.signal.aborted) return
  if (stream) return stream.end(out)
  sendJson(res, 200, {
    id: `chatcmpl-${randomUUID()}`,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: body.model,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          ...(out.toolCalls.length > 0
            ? {
                tool_calls: out.toolCalls.map((c, i) => ({
                  id: `call_${i}_${randomUUID().slice(0, 8)}`,
                  type: 'function',
                  function: { name: c.name, arguments: c.arguments },
                })),
              }
            : {}),
        },
        finish_reason: out.finishReason,
      },
    ],
    usage: {
      prompt_tokens: out.promptTokens,
      completion_tokens: out.completionTokens,
      total_tokens: out.promptTokens + out.completionTokens,
    },
  })
}

async function route(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  o: RuntimeServerOptions,
): Promise<void> {
  if (!authorized(req, o.secret)) {
    return sendError(
      res,
      401,
      'This is Cairn’s local model runtime; it answers Cairn only.',
      'unauthorized',
    )
  }
  const url = new URL(req.url ?? '/', 'http://127.0.0.1')
  if (req.method === 'GET' && url.pathname === '/v1/models') {
    return sendJson(res, 200, { object: 'list', data: o.index.list().map((m) => modelEntry(m, o)) })
  }
  if (req.method === 'POST' && url.pathname === '/v1/chat/completions')
    return chatCompletions(req, res, o)
  sendError(res, 404, `The local runtime has no ${req.method} ${url.pathname}.`, 'not_found')
}

/** Starts the server on 127.0.0.1 (a free port); resolves with the port. */
export async function startRuntimeServer(
  o: RuntimeServerOptions,
): Promise<{ server: http.Server; port: number }> {
  const server = http.createServer((req, res) => {
    route(req, res, o).catch((e: unknown) => {
      if (e instanceof RuntimeError) return sendError(res, e.status, e.message, e.code)
      sendError(res, 500, `The local runtime failed: ${(e as Error).message}`, 'runtime_error')
    })
  })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  return { server, port: (server.address() as AddressInfo).port }
}
