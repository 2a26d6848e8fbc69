/**
 * The production renderer is served from `app://cairn/…` (not file://): a standard, secure
 * origin of its own, with our CSP on every response and nothing outside `out/renderer`.
 * Tools' views (MCP Apps) are served at `app://cairn/mcp-view/<token>` with their own
 * policy (`services/host/view-documents.ts`), the only frames our page may load.
 */
import { readFile, stat } from 'node:fs/promises'
import { join, resolve, sep } from 'node:path'
import type { Protocol } from 'electron'
import { mimeType, pageCsp } from '../services/host/page-policy'
import { ViewDocuments } from '../services/host/view-documents'
import { APP_ORIGIN } from './security'

export const APP_SCHEME = 'app'
export const APP_HOST = 'cairn'
export const APP_INDEX_URL = `${APP_ORIGIN}/index.html`

/** Must run before the app is ready. */
export function registerAppScheme(protocol: Protocol): void {
  protocol.registerSchemesAsPrivileged([
    { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  ])
}

/**
 * The file an `app://cairn/<path>` URL names inside `root`, or null: another host, a path
 * that does not decode, a NUL byte, or anything that would leave `root` once decoded
 * (`..`, `%2e%2e%2f`, `..%5c`, an absolute path).
 */
export function resolveAppPath(root: string, url: string): string | null {
  const u = URL.parse(url)
  if (!u) return null
  if (u.protocol !== `${APP_SCHEME}:` || u.host !== APP_HOST) return null
  let path: string
  try {
    path = decodeURIComponent(u.pathname)
  } catch {
    return null
  }
  if (path.includes('\0')) return null
  const segments = path.split(/[/\\]+/).filter((s) => s !== '')
  if (segments.some((s) => s === '..' || s === '.' || /^[a-zA-Z]:$/.test(s))) return null
  const base = resolve(root)
  const file = resolve(base, ...(segments.length > 0 ? segments : ['index.html']))
  return file.startsWith(base + sep) ? file : null
}

const headers = (type: string): Record<string, string> => ({
  'Content-Type': type,
  'Content-Security-Policy': pageCsp(APP_ORIGIN),
  'X-Content-Type-Options': 'nosniff',
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Referrer-Policy': 'no-referrer',
})

const notFound = (): Response =>
  new Response('Not found', { status: 404, headers: headers('text/plain; charset=utf-8') })

/** The views' documents, once the engine is up (null: none yet). */
export type ViewSource = () => Promise<ViewDocuments | null>

/**
 * Answers one request of the app: protocol from the files under `root`, and tools' views
 * from `views`.
 */
export async function serveApp(
  root: string,
  request: Request,
  views?: ViewSource,
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD') {
    return new Response('Method not allowed', { status: 405, headers: headers('text/plain') })
  }
  const u = URL.parse(request.url)
  if (u && u.host === APP_HOST && ViewDocuments.isViewPath(u.pathname)) {
    const docs = views ? await views() : null
    if (!docs) return notFound()
    const view = docs.serve(u.pathname, APP_ORIGIN)
    return new Response(view.body, { status: view.status, headers: view.headers })
  }
  let file = resolveAppPath(root, request.url)
  if (file === null) return notFound()
  try {
    if ((await stat(file)).isDirectory()) file = join(file, 'index.html')
    const body = await readFile(file)
    return new Response(request.method === 'HEAD' ? null : body, {
      status: 200,
      headers: headers(mimeType(file)),
    })
  } catch {
    return notFound()
  }
}

/** After ready: serve `root` (the built renderer) on app://cairn. */
export function handleAppProtocol(protocol: Protocol, root: string, views: ViewSource): void {
  protocol.handle(APP_SCHEME, (request) => serveApp(root, request, views))
}
