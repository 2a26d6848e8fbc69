/**
 * The UI benchmark's model: an OpenAI-compatible server, in its own process so that its CPU
 * is not the page's, that streams Markdown at a steady token rate. Every 16 ms it writes
 * the tokens due (1 000 tok/s ≈ 16 one-token chunks per write) for the planned duration,
 * then ends an open block, writes the plan's unique final token in a chunk of its own
 * (noting `Date.now()`), `finish_reason: stop`, usage and `[DONE]`.
 *
 * - `GET /v1/models`
 * - `POST /v1/chat/completions`: streams by the current plan
 * - `POST /bench/plan` `{ rate, seconds, final }`: the plan of the next streams
 * - `GET /bench/state`: the stream running (`current`) and the last one finished (`last`)
 *
 * Prints its port on stdout.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { TokenSource } from './text'

export interface StreamPlan {
  /** tokens per second */
  rate: number
  seconds: number
  /** written last, alone in its chunk; must not occur anywhere else */
  final: string
}

export interface StreamRecord extends StreamPlan {
  /** Date.now() of the first write */
  startedAt: number
  /** Date.now() right after the final token's chunk was written; null while streaming */
  finalWrittenAt: number | null
  tokens: number
  /** characters of content streamed */
  chars: number
  writes: number
  /** the longest gap between two writes (ms): the server kept pace if it is near 16 */
  maxGapMs: number
}

export interface ServerState {
  current: StreamRecord | null
  last: StreamRecord | null
}

const TICK_MS = 16
const base = {
  id: 'chatcmpl-bench-ui',
  object: 'chat.completion.chunk',
  created: 0,
  model: 'bench',
}
let plan: StreamPlan = { rate: 1000, seconds: 5, final: 'FINALxTOKEN' }
const state: ServerState = { current: null, last: null }
let seed = 1

function chunk(delta: Record<string, string>, finish: string | null = null): string {
  const c = { ...base, choices: [{ index: 0, delta, finish_reason: finish }] }
  return `data: ${JSON.stringify(c)}\n\n`
}

function stream(res: ServerResponse): void {
  const p = plan
  const source = new TokenSource(seed++)
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  const started = Date.now()
  const rec: StreamRecord = {
    ...p,
    startedAt: started,
    finalWrittenAt: null,
    tokens: 0,
    chars: 0,
    writes: 0,
    maxGapMs: 0,
  }
  state.current = rec
  let lastWrite = started
  const write = (s: string): void => {
    const now = Date.now()
    rec.maxGapMs = Math.max(rec.maxGapMs, now - lastWrite)
    lastWrite = now
    rec.writes++
    res.write(s)
  }
  const content = (text: string): string => {
    rec.tokens++
    rec.chars += text.length
    return chunk({ content: text })
  }
  write(chunk({ role: 'assistant', content: '' }))
  const timer = setInterval(() => {
    const elapsed = Date.now() - started
    const due = Math.floor((p.rate * Math.min(elapsed, p.seconds * 1000)) / 1000)
    let out = ''
    while (rec.tokens < due) out += content(source.next())
    if (out) write(out)
    if (elapsed < p.seconds * 1000) return
    clearInterval(timer)
    write(content(source.closing()))
    write(content(p.final))
    rec.finalWrittenAt = Date.now()
    write(chunk({}, 'stop'))
    const usage = {
      prompt_tokens: 1000,
      completion_tokens: rec.tokens,
      total_tokens: rec.tokens + 1000,
    }
    write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\ndata: [DONE]\n\n`)
    res.end()
    state.current = null
    state.last = rec
  }, TICK_MS)
  res.once('close', () => clearInterval(timer))
}

function json(res: ServerResponse, body: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' })
  res.end(JSON.stringify(body))
}

function handle(req: IncomingMessage, res: ServerResponse, body: string): void {
  const url = req.url ?? ''
  if (req.method === 'GET' && url.endsWith('/models')) {
    json(res, { object: 'list', data: [{ id: 'bench', object: 'model', owned_by: 'bench' }] })
  } else if (req.method === 'POST' && url.endsWith('/chat/completions')) {
    stream(res)
  } else if (req.method === 'POST' && url === '/bench/plan') {
    plan = JSON.parse(body) as StreamPlan
    json(res, plan)
  } else if (req.method === 'GET' && url === '/bench/state') {
    json(res, state)
  } else {
    res.writeHead(404).end()
  }
}

const server = createServer((req, res) => {
  let body = ''
  req.setEncoding('utf8')
  req.on('data', (d: string) => (body += d))
  req.on('end', () => handle(req, res, body))
})
server.listen(0, '127.0.0.1', () => {
  const addr = server.address()
  if (addr && typeof addr === 'object') process.stdout.write(`${addr.port}\n`)
})
