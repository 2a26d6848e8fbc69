/**
 * The UI benchmark's model: an OpenAI-compatible server, in its own process so that its CPU
 * is not the page's, that streams Markdown of one shape (`shapes.ts`) at a steady token
 * rate. Every 16 ms it writes the tokens due (1 000 tok/s ≈ 16 one-token chunks per write)
 * for the planned duration, then ends an open block, writes the plan's unique final token
 * in a chunk of its own (noting `Date.now()`), `finish_reason: stop`, usage and `[DONE]`.
 * The `reasoning` shape streams `reasoning_content` for the first half; the `tools` shape
 * ends each response with a call to `list_directory` after 100 tokens, and the requests
 * that follow (with the call's result) go on with the same stream, at the same rate.
 *
 * - `GET /v1/models`
 * - `POST /v1/chat/completions`: streams by the current plan
 * - `POST /bench/plan` `{ rate, seconds, final, shape }`: the plan of the next streams
 * - `GET /bench/state`: the stream running (`current`) and the last one finished (`last`)
 *
 * Prints its port on stdout.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { REASONING_SHARE, TOKENS_PER_TOOL_CALL, TokenSource, type ShapeName } from './shapes'

export interface StreamPlan {
  /** tokens per second */
  rate: number
  seconds: number
  /** written last, alone in its chunk; must not occur anywhere else */
  final: string
  shape: ShapeName
}

export interface StreamRecord extends StreamPlan {
  /** Date.now() of the first write */
  startedAt: number
  /** Date.now() right after the final token's chunk was written; null while streaming */
  finalWrittenAt: number | null
  /** tokens of content and reasoning */
  tokens: number
  /** characters of content streamed (reasoning not counted) */
  chars: number
  reasoningChars: number
  /** model calls answered (more than one: tool calls) */
  requests: number
  toolCalls: number
  writes: number
  /** the longest gap between two writes within a response (ms): near 16, the server kept pace */
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
let plan: StreamPlan = { rate: 1000, seconds: 5, final: 'FINALxTOKEN', shape: 'mixed' }
const state: ServerState = { current: null, last: null }
let seed = 1

/** the stream under way: a `tools` stream spans several requests */
interface Running {
  rec: StreamRecord
  content: TokenSource
  reasoning: TokenSource
}
let running: Running | null = null

function chunk(delta: Record<string, unknown>, finish: string | null = null): string {
  const c = { ...base, choices: [{ index: 0, delta, finish_reason: finish }] }
  return `data: ${JSON.stringify(c)}\n\n`
}

function begin(): Running {
  const p = plan
  const rec: StreamRecord = {
    ...p,
    startedAt: Date.now(),
    finalWrittenAt: null,
    tokens: 0,
    chars: 0,
    reasoningChars: 0,
    requests: 0,
    toolCalls: 0,
    writes: 0,
    maxGapMs: 0,
  }
  state.current = rec
  const s = seed++
  return {
    rec,
    content: new TokenSource(p.shape, s),
    reasoning: new TokenSource('reasoning-text', s + 1000),
  }
}

function toolCall(rec: StreamRecord): string {
  const n = rec.toolCalls++
  // one of the workspace's ten folders (`seed.ts`): never the same call twice in a row
  const args = `{"path":"d${n % 10}"}`
  const call = {
    index: 0,
    id: `call_${n}`,
    type: 'function',
    function: { name: 'list_directory', arguments: args },
  }
  return chunk({ tool_calls: [call] }) + chunk({}, 'tool_calls')
}

function end(res: ServerResponse, run: Running, write: (s: string) => void): void {
  const { rec } = run
  write(chunk({ content: run.content.closing() }))
  write(chunk({ content: rec.final }))
  rec.finalWrittenAt = Date.now()
  write(chunk({}, 'stop'))
  const usage = {
    prompt_tokens: 1000,
    completion_tokens: rec.tokens,
    total_tokens: rec.tokens + 1000,
  }
  write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\ndata: [DONE]\n\n`)
  res.end()
  running = null
  state.current = null
  state.last = rec
}

function stream(res: ServerResponse): void {
  const run = (running ??= begin())
  const { rec } = run
  const p: StreamPlan = rec
  rec.requests++
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
  let lastWrite = Date.now()
  const write = (s: string): void => {
    const now = Date.now()
    rec.maxGapMs = Math.max(rec.maxGapMs, now - lastWrite)
    lastWrite = now
    rec.writes++
    res.write(s)
  }
  const token = (elapsed: number): string => {
    rec.tokens++
    if (p.shape === 'reasoning' && elapsed < p.seconds * 1000 * REASONING_SHARE) {
      const text = run.reasoning.next()
      rec.reasoningChars += text.length
      return chunk({ reasoning_content: text })
    }
    const text = run.content.next()
    rec.chars += text.length
    return chunk({ content: text })
  }
  write(chunk({ role: 'assistant', content: '' }))
  let sent = 0
  const timer = setInterval(() => {
    const elapsed = Date.now() - rec.startedAt
    const due = Math.floor((p.rate * Math.min(elapsed, p.seconds * 1000)) / 1000)
    let out = ''
    while (rec.tokens < due) {
      out += token(elapsed)
      if (p.shape === 'tools' && ++sent >= TOKENS_PER_TOOL_CALL) break
    }
    if (p.shape === 'tools' && sent >= TOKENS_PER_TOOL_CALL && elapsed < p.seconds * 1000) {
      clearInterval(timer)
      write(out + toolCall(rec))
      res.end()
      return
    }
    if (out) write(out)
    if (elapsed < p.seconds * 1000) return
    clearInterval(timer)
    end(res, run, write)
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
