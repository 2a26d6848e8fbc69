/**
 * The loopback address an authorization server sends the browser back to after a login:
 * an HTTP server on 127.0.0.1 with a port the system picks, for one login. It takes the
 * code only with the `state` that was sent, answers the browser with a short page, and
 * gives up after a time limit with a message that says so.
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'

export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000
const PATH = '/callback'

export interface CallbackServer {
  /** `http://127.0.0.1:<port>/callback` */
  readonly redirectUrl: string
  /** the `state` the answer must carry (read when the browser comes back) */
  expectState(state: () => string | null): void
  /** the code, once the browser came back with `state`; rejects on an error or the time limit */
  waitForCode(): Promise<string>
  close(): void
}

export class LoginError extends Error {}

function page(res: http.ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': "default-src 'none'",
  })
  const safe = text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`)
  res.end(`<!doctype html><title>Cairn</title><p>${safe}</p>`)
}

export async function startCallbackServer(
  opts: { timeoutMs?: number; serverName?: string } = {},
): Promise<CallbackServer> {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_LOGIN_TIMEOUT_MS
  let settle: { resolve(code: string): void; reject(e: Error): void } | null = null
  let expected: () => string | null = () => null
  let outcome: { code: string } | { error: Error } | null = null
  const finish = (o: { code: string } | { error: Error }): void => {
    if (outcome) return
    outcome = o
    if (!settle) return
    if ('code' in o) settle.resolve(o.code)
    else settle.reject(o.error)
  }
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1')
    if (req.method !== 'GET' || url.pathname !== PATH) return page(res, 404, 'Not found.')
    const state = url.searchParams.get('state')
    const sent = expected()
    // a request without the state this login sent is not its answer (another page, a replay)
    if (!sent || state !== sent) {
      return page(res, 400, 'This address does not belong to the login in progress.')
    }
    const error = url.searchParams.get('error')
    if (error) {
      const why = url.searchParams.get('error_description')
      page(res, 200, 'The login did not complete. You can close this tab.')
      return finish({
        error: new LoginError(
          `The authorization server refused the login: ${error}${why ? ` (${why})` : ''}.`,
        ),
      })
    }
    const code = url.searchParams.get('code')
    if (!code) return page(res, 400, 'The answer has no authorization code.')
    page(res, 200, 'You are logged in. You can close this tab and return to Cairn.')
    finish({ code })
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => resolve())
  })
  const { port } = server.address() as AddressInfo
  let timer: NodeJS.Timeout | null = null
  return {
    redirectUrl: `http://127.0.0.1:${port}${PATH}`,
    expectState(state) {
      expected = state
    },
    waitForCode() {
      return new Promise<string>((resolve, reject) => {
        settle = { resolve, reject }
        if (outcome) return 'code' in outcome ? resolve(outcome.code) : reject(outcome.error)
        timer = setTimeout(() => {
          const minutes = Math.max(1, Math.round(timeoutMs / 60_000))
          const who = opts.serverName ? ` to "${opts.serverName}"` : ''
          finish({
            error: new LoginError(
              `The login${who} timed out: no answer came back from the browser within ${timeoutMs < 60_000 ? `${Math.round(timeoutMs / 1000)} s` : `${minutes} min`}. Try again.`,
            ),
          })
        }, timeoutMs)
      })
    },
    close() {
      if (timer) clearTimeout(timer)
      server.closeAllConnections()
      server.close()
    },
  }
}
