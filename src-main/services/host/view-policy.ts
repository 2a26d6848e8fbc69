/**
 * The policy a tool's view (MCP Apps) runs under. The view's document is served with it as
 * a header, in a frame sandboxed to an opaque origin of its own (`allow-scripts
 * allow-forms`: no same origin, no popups, no top navigation). Nothing is allowed but what
 * the view's resource declares, and a declaration is taken only as an https (or wss)
 * origin on a public name: no scheme-wide or bare wildcards, no plain http, no loopback or
 * IP address (Cairn's own servers listen there), nothing that could end a directive. With
 * nothing declared a view reaches no network at all.
 */
import {
  VIEW_SANDBOX,
  type ViewCsp,
  type ViewResourceMeta,
} from '../../../src-preload/contract/mcp-apps'

/** `https://name[:port]`, `https://*.name[:port]` (or `wss://`); the name in lower case */
const ORIGIN = /^(https|wss):\/\/(\*\.)?([a-z0-9-]{1,63}(?:\.[a-z0-9-]{1,63})+)(:\d{1,5})?\/?$/

/** why a declared source is refused, or null when it is taken */
function refusal(source: string): string | null {
  const s = source.trim().toLowerCase()
  const m = ORIGIN.exec(s)
  if (!m) return 'not an https or wss origin'
  const host = m[3]!
  if (/^[\d.]+$/.test(host)) return 'an IP address'
  if (host === 'localhost' || host.endsWith('.localhost')) return 'a loopback name'
  if (m[2] && host.split('.').length < 2) return 'a wildcard over a whole top-level domain'
  return null
}

/** The declared sources Cairn takes (normalized, without a trailing slash), and the rest with why. */
export function checkSources(declared: readonly string[] | undefined): {
  allowed: string[]
  refused: string[]
} {
  const allowed: string[] = []
  const refused: string[] = []
  for (const source of declared ?? []) {
    const why = refusal(source)
    if (why) refused.push(`${source.slice(0, 200)} (${why})`)
    else {
      const s = source.trim().toLowerCase().replace(/\/$/, '')
      if (!allowed.includes(s)) allowed.push(s)
    }
  }
  return { allowed, refused }
}

/** What a view's resource declares, as Cairn allows it. */
export function allowedViewCsp(meta: ViewResourceMeta): { csp: ViewCsp; refused: string[] } {
  const c = meta.csp ?? {}
  const connect = checkSources(c.connectDomains)
  const resource = checkSources(c.resourceDomains)
  const frame = checkSources(c.frameDomains)
  const base = checkSources(c.baseUriDomains)
  return {
    csp: {
      connectDomains: connect.allowed,
      resourceDomains: resource.allowed,
      frameDomains: frame.allowed,
      baseUriDomains: base.allowed,
    },
    refused: [...connect.refused, ...resource.refused, ...frame.refused, ...base.refused],
  }
}

const list = (sources: readonly string[], fallback: string): string =>
  sources.length > 0 ? sources.join(' ') : fallback

/**
 * The view's policy, as the header of its document. `parentOrigin`: the page allowed to
 * frame it. Inline scripts and styles are the view's own code (a view is one document);
 * eval, plugins, workers from elsewhere, form posts and framing by anyone else are not.
 */
export function viewCsp(csp: ViewCsp, parentOrigin: string): string {
  const res = csp.resourceDomains.join(' ')
  const withRes = (base: string): string => (res ? `${base} ${res}` : base)
  return [
    "default-src 'none'",
    `script-src ${withRes("'unsafe-inline'")}`,
    `style-src ${withRes("'unsafe-inline'")}`,
    `img-src ${withRes('data: blob:')}`,
    `font-src ${withRes('data:')}`,
    `media-src ${withRes('data: blob:')}`,
    `connect-src ${list(csp.connectDomains, "'none'")}`,
    `frame-src ${list(csp.frameDomains, "'none'")}`,
    `base-uri ${list(csp.baseUriDomains, "'none'")}`,
    "worker-src 'none'",
    "object-src 'none'",
    "form-action 'none'",
    `frame-ancestors ${parentOrigin}`,
    // the document is sandboxed even where it is loaded outside the card's frame
    `sandbox ${VIEW_SANDBOX}`,
  ].join('; ')
}
