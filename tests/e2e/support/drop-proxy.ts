/**
 * A small HTTP + WebSocket proxy in front of browser mode that can drop every connection
 * on demand — the way a flaky network or a sleeping laptop does — while the host keeps
 * running. It presents the host's own Host and Origin, as a reverse proxy on the same
 * machine would.
 */
import { createServer, request, type IncomingMessage } from 'node:http'
import { connect, type Socket } from 'node:net'

export interface DropProxy {
  url: (path: string) => string
  dropAll(): void
  close(): Promise<void>
}

export async function startDropProxy(target: string): Promise<DropProxy> {
  const t = new URL(target)
  const sockets = new Set<Socket>()
  const track = (s: Socket): void => {
    sockets.add(s)
    s.on('close', () => sockets.delete(s))
  }
  let port = 0
  const rewrite = (req: IncomingMessage): Record<string, string | string[] | undefined> => {
    const headers = { ...req.headers, host: t.host }
    if (headers.origin) headers.origin = t.origin
    return headers
  }
  const server = createServer((req, res) => {
    const up = request(
      { host: t.hostname, port: t.port, path: req.url, method: req.method, headers: rewrite(req) },
      (r) => {
        const headers = { ...r.headers }
        if (typeof headers.location === 'string')
          headers.location = headers.location.replace(t.origin, `http://127.0.0.1:${port}`)
        res.writeHead(r.statusCode ?? 502, headers)
        r.pipe(res)
      },
    )
    up.on('error', () => res.destroy())
    req.pipe(up)
  })
  server.on('connection', track)
  server.on('upgrade', (req, client: Socket, head) => {
    const upstream = connect(Number(t.port), t.hostname, () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`]
      for (const [k, v] of Object.entries(rewrite(req))) {
        for (const value of Array.isArray(v) ? v : [v])
          if (value !== undefined) lines.push(`${k}: ${value}`)
      }
      upstream.write(`${lines.join('\r\n')}\r\n\r\n`)
      if (head.length) upstream.write(head)
      upstream.pipe(client)
      client.pipe(upstream)
    })
    track(upstream)
    upstream.on('error', () => client.destroy())
    client.on('error', () => upstream.destroy())
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()))
  const addr = server.address()
  port = addr && typeof addr === 'object' ? addr.port : 0
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    dropAll: () => {
      for (const s of sockets) s.destroy()
    },
    close: () =>
      new Promise((r) => {
        for (const s of sockets) s.destroy()
        server.close(() => r())
      }),
  }
}
