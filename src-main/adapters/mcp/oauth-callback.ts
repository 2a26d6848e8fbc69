/**
 * The loopback address an authorization server sends the browser back to after a login:
 * an HTTP server on 127.0.0.1 with a port the system picks, for one login. It takes the
 * code only with the `state` that was sent, answers the browser with a short page, and
 * gives up after a time limit with a message that says so. The answer's `iss` (RFC 9207)
 * comes with the code, for the login to check which authorization server answered; a
 * refusal's own words are kept apart until that check has passed (a mix-up attacker writes
 * them).
 */
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { ExpectedError } from '../../core/errors'

export const DEFAULT_LOGIN_TIMEOUT_MS = 5 * 60_000
const PATH = '/callback'

export interface CallbackServer {
  /** `http://127.0.0.1:<port>/callback` */
  readonly redirectUrl: string
  /** the `state` the answer must carry (read when the browser comes back) */
  expectState(state: () => string | null): void
  /**
   * the code and `iss`, once the browser came back with `state`; rejects with a
   * `LoginRefused` when the authorization server refused, a `LoginError` on the time limit
   */
  waitForCode(): Promise<CallbackAnswer>
  close(): void
}

/** The login did not complete (refused, or never answered); the message says why. */
export class LoginError extends ExpectedError<'unavailable'> {
  constructor(message: string) {
    super('unavailable', message)
    this.name = 'LoginError'
  }
}

export interface CallbackAnswer {
  code: string
  /** the authorization server's `iss`, when it sent one */
  iss?: string
}

/**
 * The authorization server refused the login. Its `error` and `error_description` are the
 * answer's words: shown only once `iss` says the answer came from the server Cairn asked.
 */
export class LoginRefused extends LoginError {
  constructor(
    readonly error: string,
    readonly description: string | null,
    readonly iss: string | undefined,
  ) {
    super('The authorization server refused the login.')
  }

  /** what the user is told, once the answer's origin is checked */
  serversWords(): string {
    return `The authorization server refused the login: ${this.error}${this.description ? ` (${this.description})` : ''}.`
  }
}

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
  let settle: { resolve(answer: CallbackAnswer): void; reject(e: Error): void } | null = null
  let expected: () => string | null = () => null
  let outcome: { answer: CallbackAnswer } | { error: Error } | null = null
  const finish = (o: { answer: CallbackAnswer } | { error: Error }): void => {
    if (outcome) return
    outcome = o
    if (!settle) return
    if ('answer' in o) settle.resolve(o.answer)
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
    const iss = url.searchParams.get('iss') ?? undefined
    const error = url.searchParams.get('error')
    if (error) {
      const why = url.searchParams.get('error_description')
      page(res, 200, 'The login did not complete. You can close this tab.')
      return finish({ error: new LoginRefused(error, why, iss) })
    }
    const code = url.searchParams.get('code')
    if (!code) return page(res, 400, 'The answer has no authorization code.')
    page(res, 200, 'You can close this tab and return to Cairn.')
    finish({ answer: { code, ...(iss !== undefined ? { iss } : {}) } })
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
      return new Promise<CallbackAnswer>((resolve, reject) => {
        settle = { resolve, reject }
        if (outcome) return 'answer' in outcome ? resolve(outcome.answer) : reject(outcome.error)
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
