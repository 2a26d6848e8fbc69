/**
 * The documents of tools' views (MCP Apps), ready to load: `mcp.openView` reads a view
 * from its server and keeps it here under a random token; the host that serves the page
 * (browser mode's server, the desktop app's app: protocol) serves it at
 * `/mcp-view/<token>` on the page's origin, with the view's own policy (`view-policy.ts`)
 * and not Cairn's. A token is good for a few minutes and a few loads; the frame loads it
 * at once.
 */
import { randomBytes } from 'node:crypto'
import { VIEW_PATH_PREFIX, type ViewCsp } from '../../../src-preload/contract/mcp-apps'
import { viewCsp } from './view-policy'

/** how long a view's document can be loaded after it was read */
export const VIEW_DOCUMENT_TTL_MS = 5 * 60_000
/** how many times it can be loaded (a reload of the page reads the view again) */
const MAX_LOADS = 3
/** documents kept at most (the oldest go first) */
const MAX_DOCUMENTS = 200

interface Kept {
  html: string
  csp: ViewCsp
  until: number
  loads: number
}

/** One answer of the host, whatever its HTTP library. */
export interface ViewResponse {
  status: number
  headers: Record<string, string>
  body: string
}

export class ViewDocuments {
  private readonly docs = new Map<string, Kept>()

  constructor(private readonly now: () => number = Date.now) {}

  /** keeps a view's document; the path to load it from */
  add(html: string, csp: ViewCsp): string {
    this.prune()
    const token = randomBytes(24).toString('base64url')
    this.docs.set(token, { html, csp, until: this.now() + VIEW_DOCUMENT_TTL_MS, loads: 0 })
    return `${VIEW_PATH_PREFIX}${token}`
  }

  /** whether a request's path is a view's (the host then answers with `serve`) */
  static isViewPath(pathname: string): boolean {
    return pathname.startsWith(VIEW_PATH_PREFIX)
  }

  /**
   * The answer to a request for `pathname` from a page on `parentOrigin`: the document with
   * its policy, or 404 for a token that is unknown, expired or used up.
   */
  serve(pathname: string, parentOrigin: string): ViewResponse {
    const token = pathname.slice(VIEW_PATH_PREFIX.length)
    const doc = this.docs.get(token)
    if (!doc || doc.until < this.now() || doc.loads >= MAX_LOADS) {
      this.docs.delete(token)
      return {
        status: 404,
        headers: { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store' },
        body: 'This view has expired: show it again from its card.',
      }
    }
    doc.loads++
    return {
      status: 200,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': viewCsp(doc.csp, parentOrigin),
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
        'cross-origin-resource-policy': 'same-origin',
      },
      body: doc.html,
    }
  }

  private prune(): void {
    const now = this.now()
    for (const [token, doc] of this.docs) if (doc.until < now) this.docs.delete(token)
    while (this.docs.size >= MAX_DOCUMENTS) {
      const oldest = this.docs.keys().next().value
      if (oldest === undefined) break
      this.docs.delete(oldest)
    }
  }
}
