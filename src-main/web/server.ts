/**
 * Browser mode: the same core and services as the desktop app, the built renderer over
 * HTTP, and the contract over a WebSocket — on 127.0.0.1 only, behind a token.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import type { AppEvent } from '../../src-preload/contract/app-events'
import type { AppHost } from '../services/host/app-host'
import { CSP, pageCsp } from '../services/host/page-policy'
import { ViewDocuments } from '../services/host/view-documents'
import { serveUpload, UPLOADS } from './upload'
import { serveImportUpload } from './import-upload'
import { Gate } from './auth'
import { readStatic } from './static'

export interface WebServerOptions {
  host: AppHost
  /** the built renderer (out/renderer) */
  staticDir: string
  port: number
  /** the address to listen on (default 127.0.0.1) */
  bind?: string
  /** the token and session cookie (default: random for this launch) */
  credentials?: { token: string; session: string }
}

export interface WebServer {
  /** the address to open, with the token */
  url: string
  port: number
  /**
   * An address that lets a browser in once, within `ttlMs` (a one-time code instead of the
   * token); `settled` runs when it has been used or has expired.
   */
  oneTimeUrl(ttlMs: number, settled: () => void): string
  close(): Promise<void>
}

const SECURITY_HEADERS = {
  'content-security-policy': CSP,
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
}

const REFUSED_PAGE = `<!doctype html><meta charset="utf-8"><title>Cairn</title>
<p>This address needs the token that <code>npm run web</code> printed when it started.
Open the full address it printed (it ends with <code>?token=…</code>).</p>`

/**
 * What a one-time code answers: the cookie, and a page that goes on to the app. Not a
 * redirect: the browser came from Cairn's page on disk (another site), and it would not send
 * a SameSite=Strict cookie along a redirect that began there; this page's own refresh is
 * same-site.
 */
const ENTER_PAGE = `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/"><title>Cairn</title>
<p>Opening Cairn…</p>`

function send(
  res: ServerResponse,
  status: number,
  body: string | Buffer,
  type = 'text/html; charset=utf-8',
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...SECURITY_HEADERS,
    'content-type': type,
    'cache-control': 'no-store',
    ...extra,
  })
  res.end(body)
}

/** A 500 where a handler failed, unless an answer has already started. */
function fail(res: ServerResponse): void {
  if (res.headersSent) res.destroy()
  else send(res, 500, 'Internal error', 'text/plain; charset=utf-8')
}

function reject(socket: Duplex, status: number, reason: string): void {
  if (socket.writable)
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
  socket.destroy()
}

/** The request target as a URL, or null when it is not one (`//[`, an absolute form). */
function parseTarget(raw: string | undefined): URL | null {
  if (typeof raw !== 'string' || !raw.startsWith('/')) return null
  const url = URL.parse(raw, 'http://local')
  return url?.host === 'local' ? url : null
}

/** A WebSocket frame as a request object, or null: text frames holding a JSON object only. */
function parseMessage(
  raw: RawData,
  isBinary: boolean,
): { id?: unknown; route?: unknown; input?: unknown } | null {
  if (isBinary) return null
  try {
    const text = Array.isArray(raw)
      ? Buffer.concat(raw).toString()
      : raw instanceof ArrayBuffer
        ? Buffer.from(raw).toString()
        : raw.toString()
    const msg: unknown = JSON.parse(text)
    return typeof msg === 'object' && msg !== null && !Array.isArray(msg) ? msg : null
  } catch {
    return null
  }
}

export async function startWebServer(opts: WebServerOptions): Promise<WebServer> {
  const gate = new Gate(opts.credentials)
  const bind = opts.bind ?? '127.0.0.1'
  const sockets = new Set<WebSocket>()

  const server = createServer((req, res) => {
    const handle = (route: string, input: unknown) => opts.host.router.handle(route, input)
    servePage(gate, opts.staticDir, opts.host, req, res, handle).catch(() => fail(res))
  })
  // malformed HTTP (bad request line, oversized headers): answer 400 and hang up
  server.on('clientError', (_err, socket: Duplex) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n')
    else socket.destroy()
  })
  const wss = new WebSocketServer({ noServer: true, maxPayload: 16 * 1024 * 1024 })
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy())
    try {
      const refused = refusedUpgrade(gate, req)
      if (refused) return reject(socket, ...refused)
      wss.handleUpgrade(req, socket, head, (ws) => serveSocket(opts.host, sockets, ws))
    } catch {
      reject(socket, 400, 'Bad Request')
    }
  })

  await new Promise<void>((resolve, rejectListen) => {
    server.once('error', rejectListen)
    server.listen(opts.port, bind, () => resolve())
  })
  const addr = server.address()
  const port = addr && typeof addr === 'object' ? addr.port : opts.port
  gate.setAddress(bind, port)
  const origin = `http://${shownHost(bind)}:${port}`
  return {
    url: `${origin}/?token=${gate.token}`,
    port,
    oneTimeUrl: (ttlMs, settled) => `${origin}/?code=${gate.issueCode(ttlMs, settled)}`,
    close: () =>
      new Promise<void>((resolve) => {
        gate.dropCodes()
        for (const ws of sockets) ws.terminate()
        wss.close()
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

/** the host to print in the address: a wildcard address is reached on 127.0.0.1 */
function shownHost(bind: string): string {
  return bind === '0.0.0.0' || bind === '::' ? '127.0.0.1' : bind.includes(':') ? `[${bind}]` : bind
}

/**
 * One HTTP request: the page and its files once the browser has a session, which a
 * one-time code or the token (taken out of the address bar) gives it.
 */
async function servePage(
  gate: Gate,
  staticDir: string,
  host: Pick<AppHost, 'views' | 'offerImport'>,
  req: IncomingMessage,
  res: ServerResponse,
  handle: (route: string, input: unknown) => Promise<unknown>,
): Promise<void> {
  const views = host.views
  if (!gate.hostAllowed(req))
    return send(res, 421, 'Misdirected request', 'text/plain; charset=utf-8')
  const uploadTo = req.method === 'POST' ? UPLOADS[parseTarget(req.url)?.pathname ?? ''] : undefined
  if (uploadTo) return serveUpload(gate, handle, req, res, uploadTo)
  if (req.method === 'POST' && parseTarget(req.url)?.pathname === '/upload-import')
    return serveImportUpload(gate, host.offerImport, req, res)
  if (req.method !== 'GET' && req.method !== 'HEAD')
    return send(res, 405, 'Method not allowed', 'text/plain; charset=utf-8')
  const url = parseTarget(req.url)
  if (!url) return send(res, 400, 'Bad request', 'text/plain; charset=utf-8')
  if (!gate.hasSession(req)) {
    if (gate.takeCode(url.searchParams.get('code')))
      return send(res, 200, ENTER_PAGE, undefined, { 'set-cookie': gate.sessionCookie() })
    if (!gate.tokenMatches(url.searchParams.get('token'))) return send(res, 401, REFUSED_PAGE)
    // the token is exchanged for a cookie and taken out of the address bar; the
    // redirect goes to one fixed local path, never to anything taken from the request
    res.writeHead(303, {
      ...SECURITY_HEADERS,
      location: '/',
      'set-cookie': gate.sessionCookie(),
      'cache-control': 'no-store',
    })
    return void res.end()
  }
  // the page asks whether its cookie still works when its WebSocket is refused
  if (url.pathname === '/auth') return send(res, 204, '', 'text/plain; charset=utf-8')
  // the Host header was checked by hostAllowed: the page's own origin, as the browser sees it
  const origin = `http://${req.headers.host ?? ''}`
  if (ViewDocuments.isViewPath(url.pathname)) {
    // a tool's view, under its own policy and not ours (no X-Frame-Options: our page frames it)
    const view = views.serve(url.pathname, origin)
    res.writeHead(view.status, view.headers)
    return void res.end(view.body)
  }
  const file = await readStatic(staticDir, url.pathname)
  if (!file) return send(res, 404, 'Not found', 'text/plain; charset=utf-8')
  send(res, 200, file.body, file.type, { 'content-security-policy': pageCsp(origin) })
}

/** why a WebSocket upgrade is refused (status and reason), or null to accept it */
function refusedUpgrade(gate: Gate, req: IncomingMessage): [number, string] | null {
  const url = parseTarget(req.url)
  if (!url) return [400, 'Bad Request']
  if (url.pathname !== '/ws') return [404, 'Not Found']
  if (!gate.hostAllowed(req)) return [421, 'Misdirected Request']
  if (!gate.originAllowed(req)) return [403, 'Forbidden']
  if (!gate.hasSession(req)) return [401, 'Unauthorized']
  return null
}

/** One WebSocket: the app's events go out, requests come in and are answered by id. */
function serveSocket(host: AppHost, sockets: Set<WebSocket>, ws: WebSocket): void {
  sockets.add(ws)
  const unsubscribe = host.hub.subscribe((e: AppEvent) => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify(e))
  })
  const answer = (id: string | number | null, result: unknown): void => {
    if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ id, result }))
  }
  ws.on('message', (raw, isBinary) => {
    const msg = parseMessage(raw, isBinary)
    if (!msg) {
      return answer(null, {
        ok: false,
        error: {
          code: 'bad_request',
          message: 'The message is not a JSON object of the form {"id", "route", "input"}.',
        },
      })
    }
    const id = typeof msg.id === 'number' || typeof msg.id === 'string' ? msg.id : null
    host.router.handle(msg.route, msg.input).then(
      (result) => answer(id, result),
      () => answer(id, { ok: false, error: { code: 'internal', message: 'The request failed.' } }),
    )
  })
  ws.on('close', () => {
    sockets.delete(ws)
    unsubscribe()
  })
  ws.on('error', () => ws.terminate())
}
