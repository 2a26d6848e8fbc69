/**
 * Issue 25, case 3: what Cairn reads over HTTP from a remote MCP server or its authorization
 * server is capped while it is read (the read stops; nothing past the cap is parsed): a
 * 100 MB protected-resource metadata document at every connection and at a login (a
 * document: 1 MB), and a 100 MB Streamable HTTP answer (a message: 64 MB, as a stdio line).
 * The server counts what it managed to send before Cairn hung up.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { describe, expect, it } from 'vitest'
import type { HttpServerConfig } from '../../src-main/core/mcp-ports'
import { McpConnection } from '../../src-main/adapters/mcp/connection'
import { cappedFetch } from '../../src-main/adapters/mcp/http-limits'
import { loginToServer } from '../../src-main/adapters/mcp/oauth-login'
import { McpAuthStore } from '../../src-main/adapters/mcp/oauth-store'
import { openSecrets } from '../../src-main/adapters/settings/secrets'
import { tempDir, useCleanups } from '../support/oauth-client'

const cleanup = useCleanups()
const MB = 1024 * 1024

interface Hostile {
  url: string
  /** bytes of the huge answer written before the client hung up (or all of it) */
  sent(): number
  /** the huge answer ended: the client hung up, or it was all sent */
  done: Promise<void>
}

/**
 * Streams `total` bytes of `head` + padding + `tail`, as fast as the client reads, and stops
 * when the client hangs up.
 */
function stream(res: ServerResponse, total: number, head: string, tail: string): Promise<number> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(256 * 1024, 'x')
    let sent = 0
    let closed = false
    res.on('close', () => {
      closed = true
      resolve(sent)
    })
    res.writeHead(200, { 'content-type': 'application/json' })
    res.write(head)
    sent += head.length
    const more = (): void => {
      while (!closed && sent < total) {
        sent += chunk.length
        if (!res.write(chunk)) return void res.once('drain', more)
      }
      if (!closed) res.end(tail)
    }
    more()
  })
}

/**
 * A remote MCP server that is hostile in one way: `metadata` answers 401 and serves a huge
 * protected-resource metadata document; `answer` answers `tools/list` with a huge message.
 */
async function hostile(way: 'metadata' | 'answer', total = 100 * MB): Promise<Hostile> {
  let sent = 0
  let finish!: () => void
  const done = new Promise<void>((r) => (finish = r))
  let origin = ''
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    req.on('data', (d: Buffer) => (body += d.toString()))
    req.on('end', () => {
      const path = new URL(req.url ?? '/', 'http://x').pathname
      if (path.startsWith('/.well-known/oauth-protected-resource') && way === 'metadata') {
        void stream(res, total, `{"resource":"${origin}/mcp","pad":"`, '"}').then((n) => {
          sent = n
          finish()
        })
        return
      }
      if (path !== '/mcp') return void res.writeHead(404).end()
      if (way === 'metadata')
        return void res
          .writeHead(401, {
            'www-authenticate': `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
          })
          .end()
      if (req.method !== 'POST') return void res.writeHead(405).end()
      const msg = JSON.parse(body) as { id?: number; method: string }
      if (msg.id === undefined) return void res.writeHead(202).end()
      if (msg.method === 'initialize')
        return void res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            jsonrpc: '2.0',
            id: msg.id,
            result: {
              protocolVersion: '2025-11-25',
              capabilities: { tools: {} },
              serverInfo: { name: 'hostile', version: '1' },
            },
          }),
        )
      void stream(
        res,
        total,
        `{"jsonrpc":"2.0","id":${msg.id},"result":{"tools":[],"pad":"`,
        '"}}',
      ).then((n) => {
        sent = n
        finish()
      })
    })
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  cleanup(
    () =>
      new Promise<void>((r) => {
        server.closeAllConnections()
        server.close(() => r())
      }),
  )
  return { url: `${origin}/mcp`, sent: () => sent, done }
}

function connection(url: string, store?: McpAuthStore): McpConnection {
  const c = new McpConnection('remote', { url } satisfies HttpServerConfig, {
    launchStdio: () => Promise.reject(new Error('no stdio here')),
    clientVersion: 'test',
    ...(store ? { oauthStore: store } : {}),
    restartBaseMs: 60_000,
  })
  cleanup(() => c.stop())
  return c
}

describe('HTTP answers from an MCP server or its authorization server', () => {
  it('a 100 MB protected-resource metadata document is not read past 1 MB at a start', async () => {
    const server = await hostile('metadata')
    const store = new McpAuthStore(openSecrets(tempDir('cairn-http-cap-', cleanup)))
    const c = connection(server.url, store)
    await c.start()
    await server.done
    expect(server.sent()).toBeLessThan(16 * MB)
    // the SDK's discovery goes on without it: the server needs a login, which says why
    expect(c.status()).toBe('needs-login')
  })

  it('nor at a login, which fails saying so', async () => {
    const server = await hostile('metadata')
    const store = new McpAuthStore(openSecrets(tempDir('cairn-http-cap-login-', cleanup)))
    await expect(
      loginToServer('remote', { url: server.url }, { store, open: () => {}, timeoutMs: 5000 }),
    ).rejects.toThrow(/larger than 1 MB: Cairn stopped reading it/)
    await server.done
    expect(server.sent()).toBeLessThan(16 * MB)
  })

  it('a 100 MB Streamable HTTP answer is not read past 64 MB', async () => {
    const server = await hostile('answer')
    const c = connection(server.url)
    await c.start()
    await server.done
    expect(server.sent()).toBeLessThan(80 * MB)
    expect(c.status()).toBe('error')
    expect(c.info().error).toMatch(/larger than 64 MB: Cairn stopped reading it/)
  }, 30_000)

  it('an event stream is capped per event, so a stream open for long is not cut', async () => {
    // 2 MB in events of 1 KB pass a 1 MB cap; one event of 2 MB does not
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' })
      const event = req.url === '/many' ? `data: ${'x'.repeat(1024)}\n\n` : ''
      if (event) for (let i = 0; i < 2048; i++) res.write(event)
      else res.write(`data: ${'y'.repeat(2 * MB)}\n\n`)
      res.end()
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    cleanup(() => new Promise<void>((r) => server.close(() => r())))
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    // not the server's own address: a document, capped at 1 MB
    const f = cappedFetch(`${origin}/mcp`)
    expect((await (await f(`${origin}/many`)).text()).length).toBeGreaterThan(2 * MB)
    await expect((await f(`${origin}/one`)).text()).rejects.toThrow(/larger than 1 MB/)
  })
})
