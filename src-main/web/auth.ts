/**
 * Who may use browser mode: only this machine (Host header), only our page (Origin), and
 * only someone who opened the printed address (the token, kept per data directory and
 * exchanged on first load for an HttpOnly, SameSite=Strict cookie) or the page Cairn opened
 * the browser at (a one-time code, exchanged once for the same cookie).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage } from 'node:http'

/**
 * The cookie is named per port: cookies are not isolated by port, so a page served by
 * another program on 127.0.0.1 can set ours; with the port in the name, two Cairn windows
 * on different ports do not overwrite each other's cookie.
 */
export function cookieName(port: number): string {
  return `cairn_session_${port}`
}

export function randomSecret(): string {
  return randomBytes(32).toString('base64url')
}

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a)
  const y = Buffer.from(b)
  return x.length === y.length && timingSafeEqual(x, y)
}

/**
 * The raw value of cookie `name`, or null. Never throws: the header is untrusted (any page
 * on another 127.0.0.1 port can plant cookies), so nothing is decoded — our own value is
 * base64url and is compared as sent.
 */
export function readCookie(req: IncomingMessage, name: string): string | null {
  const header = req.headers.cookie
  if (typeof header !== 'string' || header.length > 16 * 1024) return null
  for (const part of header.split(';')) {
    const eq = part.indexOf('=')
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim()
  }
  return null
}

export class Gate {
  readonly token: string
  private readonly session: string
  private cookie = cookieName(0)
  private hosts: Set<string> = new Set()
  private origins: Set<string> = new Set()
  /** one-time codes not yet used: code → what to do when it is used or expires */
  private readonly codes = new Map<string, { settle: () => void; timer: NodeJS.Timeout }>()

  /** Without credentials (tests), a random pair for this launch. */
  constructor(credentials?: { token: string; session: string }) {
    this.token = credentials?.token ?? randomSecret()
    this.session = credentials?.session ?? randomSecret()
  }

  /** Called once the port is known. `bind` is the address listened on. */
  setAddress(bind: string, port: number): void {
    const names = new Set([
      '127.0.0.1',
      'localhost',
      '[::1]',
      bind.includes(':') ? `[${bind}]` : bind,
    ])
    this.cookie = cookieName(port)
    this.hosts = new Set([...names].map((n) => `${n}:${port}`))
    this.origins = new Set([...this.hosts].map((h) => `http://${h}`))
  }

  /** DNS rebinding: a page of another site that resolves to 127.0.0.1 sends its own Host. */
  hostAllowed(req: IncomingMessage): boolean {
    return typeof req.headers.host === 'string' && this.hosts.has(req.headers.host.toLowerCase())
  }

  /** A WebSocket from another site's page carries that site's Origin. */
  originAllowed(req: IncomingMessage): boolean {
    const origin = req.headers.origin
    return typeof origin === 'string' && this.origins.has(origin.toLowerCase())
  }

  hasSession(req: IncomingMessage): boolean {
    const value = readCookie(req, this.cookie)
    return value !== null && safeEqual(value, this.session)
  }

  tokenMatches(candidate: string | null): boolean {
    return candidate !== null && safeEqual(candidate, this.token)
  }

  /**
   * A code that `takeCode` accepts once, within `ttlMs`; `settled` runs when it is used or
   * expires (or `dropCodes` drops it).
   */
  issueCode(ttlMs: number, settled: () => void): string {
    const code = randomSecret()
    const timer = setTimeout(() => this.settle(code), ttlMs)
    timer.unref()
    this.codes.set(code, { settle: settled, timer })
    return code
  }

  /** True once for a code `issueCode` made that has not expired. */
  takeCode(candidate: string | null): boolean {
    if (candidate === null) return false
    const found = [...this.codes.keys()].find((c) => safeEqual(c, candidate))
    if (found === undefined) return false
    this.settle(found)
    return true
  }

  dropCodes(): void {
    for (const code of [...this.codes.keys()]) this.settle(code)
  }

  private settle(code: string): void {
    const entry = this.codes.get(code)
    if (!entry) return
    this.codes.delete(code)
    clearTimeout(entry.timer)
    entry.settle()
  }

  sessionCookie(): string {
    return `${this.cookie}=${this.session}; HttpOnly; SameSite=Strict; Path=/`
  }
}
