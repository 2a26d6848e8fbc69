/**
 * A scripted HTTP server on 127.0.0.1 that answers by method and path from a table: the
 * model-info endpoints of local servers and providers (LM Studio `/api/v0/models`,
 * llama.cpp `/props`, OpenRouter `/models`, Ollama `/api/*`). A route answers JSON, raw
 * text, or streams NDJSON lines; every request is recorded.
 */
import { createServer } from 'node:http'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Socket } from 'node:net'

export interface RouteRequest {
  method: string
  path: string
  headers: Record<string, string | string[] | undefined>
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- parsed JSON, read freely in tests
  body: any
}

export type RouteReply =
  | { status?: number; json: unknown }
  | { status?: number; text: string; contentType?: string }
  /** NDJSON: each item is a JSON line, `{ delayMs }` a pause; `end: 'drop'` cuts the connection */
  | { ndjson: Array<unknown | { delayMs: number }>; end?: 'close' | 'drop' | 'hang' }
  /** an OpenAI event stream: each chunk as `data: {json}`, then `data: [DONE]` */
  | { sse: unknown[] }

export type Route = RouteReply | ((req: RouteRequest) => RouteReply | Promise<RouteReply>)

export interface RouteServer {
  /** http://127.0.0.1:<port> */
  root: string
  requests: RouteRequest[]
  /** `"GET /props"` → route; mutable */
  routes: Map<string, Route>
  close(): Promise<void>
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let data = ''
    req.setEncoding('utf8')
    req.on('data', (c: string) => (data += c))
    req.on('end', () => resolve(data))
    req.on('error', reject)
  })
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))

async function write(res: ServerResponse, reply: RouteReply): Promise<void> {
  if ('sse' in reply) {
    res.writeHead(200, { 'content-type': 'text/event-stream' })
    for (const chunk of reply.sse) res.write(`data: ${JSON.stringify(chunk)}\n\n`)
    res.end('data: [DONE]\n\n')
    return
  }
  if ('ndjson' in reply) {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' })
    for (const item of reply.ndjson) {
      if (item && typeof item === 'object' && 'delayMs' in item) {
        await sleep((item as { delayMs: number }).delayMs)
        continue
      }
      res.write(`${JSON.stringify(item)}\n`)
    }
    if (reply.end === 'drop') res.socket?.destroy()
    else if (reply.end !== 'hang') res.end()
    return
  }
  if ('json' in reply) {
    res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' })
    res.end(JSON.stringify(reply.json))
    return
  }
  res.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'text/plain' })
  res.end(reply.text)
}

export async function startRouteServer(
  routes: Record<string, Route> = {},
  /** default: any free port */
  port = 0,
): Promise<RouteServer> {
  const table = new Map(Object.entries(routes))
  const requests: RouteRequest[] = []
  const sockets = new Set<Socket>()
  const server = createServer((req, res) => {
    void (async () => {
      const raw = await readBody(req)
      let body: unknown = null
      try {
        body = raw ? JSON.parse(raw) : null
      } catch {
        body = raw
      }
      const path = (req.url ?? '/').split('?')[0]!
      const recorded = { method: req.method ?? 'GET', path, headers: req.headers, body }
      requests.push(recorded)
      const route = table.get(`${recorded.method} ${path}`)
      if (!route) return write(res, { status: 404, text: '404 page not found' })
      const reply = typeof route === 'function' ? await route(recorded) : route
      await write(res, reply)
    })().catch(() => res.destroy())
  })
  server.on('connection', (s: Socket) => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  })
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve))
  const bound = (server.address() as { port: number }).port
  return {
    root: `http://127.0.0.1:${bound}`,
    requests,
    routes: table,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy()
        server.close(() => resolve())
      }),
  }
}

/** Ollama's model-info endpoints for one model (add `POST /api/chat` for answers). */
export function ollamaRoutes(o: {
  model: string
  capabilities?: string[]
  trainedContext?: number
  parameters?: string
  loadedContext?: number
}): Record<string, Route> {
  return {
    'GET /api/version': { json: { version: '0.12.3' } },
    'POST /api/show': (req) =>
      req.body?.model === o.model
        ? {
            json: {
              capabilities: o.capabilities ?? ['completion'],
              model_info: {
                'general.architecture': 'llama',
                ...(o.trainedContext ? { 'llama.context_length': o.trainedContext } : {}),
              },
              ...(o.parameters ? { parameters: o.parameters } : {}),
            },
          }
        : { status: 404, json: { error: `model '${req.body?.model}' not found` } },
    'GET /api/ps': {
      json: {
        models: o.loadedContext
          ? [
              {
                name: `${o.model}:latest`,
                model: `${o.model}:latest`,
                context_length: o.loadedContext,
              },
            ]
          : [],
      },
    },
    'GET /v1/models': { json: { object: 'list', data: [{ id: o.model, object: 'model' }] } },
  }
}
