/**
 * A streaming server for the benchmark, run in its own process so that its CPU time is not
 * counted: it answers every chat completion with TOKENS one-token chunks at full speed.
 * Prints its port on stdout.
 */
import { createServer } from 'node:http'

const TOKENS = Number(process.env['BENCH_TOKENS'] ?? 20_000)

function buildBody(): string {
  const parts: string[] = []
  const base = { id: 'chatcmpl-bench', object: 'chat.completion.chunk', created: 0, model: 'bench' }
  for (let i = 0; i < TOKENS; i++) {
    const chunk = {
      ...base,
      choices: [{ index: 0, delta: { content: `tok${i % 100} ` }, finish_reason: null }],
    }
    parts.push(`data: ${JSON.stringify(chunk)}\n\n`)
  }
  parts.push(
    `data: ${JSON.stringify({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`,
  )
  parts.push(
    `data: ${JSON.stringify({ ...base, choices: [], usage: { prompt_tokens: 10, completion_tokens: TOKENS, total_tokens: TOKENS + 10 } })}\n\n`,
  )
  parts.push('data: [DONE]\n\n')
  return parts.join('')
}

const body = buildBody()
const server = createServer((req, res) => {
  req.resume()
  req.on('end', () => {
    if (req.url?.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'bench', object: 'model' }] }))
      return
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' })
    // write in many small pieces, like a real server flushing tokens
    const pieces = body.split('\n\n')
    let i = 0
    const pump = (): void => {
      while (i < pieces.length) {
        const piece = pieces[i++]!
        if (piece === '') continue
        if (!res.write(`${piece}\n\n`)) return void res.once('drain', pump)
      }
      res.end()
    }
    pump()
  })
})
server.listen(0, '127.0.0.1', () => {
  const addr = server.address()
  if (addr && typeof addr === 'object') process.stdout.write(`${addr.port}\n`)
})
