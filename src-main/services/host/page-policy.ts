/**
 * What every host that serves the renderer sends with it: the content security policy
 * and the file types. The desktop app (`electron/protocol.ts`, app://cairn) and browser
 * mode (`web/server.ts`, `web/static.ts`) both use these, so the page runs under the same
 * rules in both. A tool's view (MCP Apps) is served by the same hosts under its own policy
 * (`viewCsp`), which `view-documents.ts` puts on its document.
 */
import { extname } from 'node:path'
import { VIEW_PATH_PREFIX } from '../../../src-preload/contract/mcp-apps'

/**
 * Our page's policy: only our own scripts; no plugins, no framing, no form posts, no
 * frames of its own. `pageCsp` is this policy for a page that shows tools' views.
 */
export const CSP = [
  "default-src 'self'",
  "frame-src 'none'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
  "form-action 'none'",
].join('; ')

/**
 * The policy of the page served from `origin` (`app://cairn`, `http://127.0.0.1:<port>`):
 * `CSP`, whose only frames are tools' views, loaded from the views' path on that origin.
 */
export function pageCsp(origin: string): string {
  return CSP.replace("frame-src 'none'", `frame-src ${origin}${VIEW_PATH_PREFIX}`)
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
}

/** The Content-Type of a file served to the page, by its extension (any case). */
export function mimeType(file: string): string {
  return TYPES[extname(file).toLowerCase()] ?? 'application/octet-stream'
}
