/**
 * MCP Apps (the `io.modelcontextprotocol/ui` extension): a tool that names a view in its
 * `_meta.ui.resourceUri` is shown with that view on its card. What the engine and the window
 * say to each other about views, and what a view may declare about itself (checked here,
 * once, with zod: a server is untrusted).
 */
import { z } from 'zod'
import type { ContentPart } from './dto'

/** the extension's id, in the client's capabilities */
export const UI_EXTENSION_ID = 'io.modelcontextprotocol/ui'
/** the MIME type of a view's resource */
export const VIEW_MIME_TYPE = 'text/html;profile=mcp-app'
/** the revision of the extension the host side speaks */
export const VIEW_PROTOCOL_VERSION = '2026-01-26'
/** where the hosts serve a view's document: `/mcp-view/<token>` on the page's own origin */
export const VIEW_PATH_PREFIX = '/mcp-view/'

/** a view's frame: scripts and forms in an opaque origin of its own; no popups, no top navigation */
export const VIEW_SANDBOX = 'allow-scripts allow-forms'

/** a view's document is refused past this many characters */
export const MAX_VIEW_HTML_CHARS = 5_000_000

/** the address of a view's resource, as a tool names it */
export const viewUriSchema = z
  .string()
  .max(2048)
  .refine((s) => s.startsWith('ui://'), 'a view is a ui:// resource')

/** A tool's `_meta.ui` (the older `_meta["ui/resourceUri"]` is read too). */
export function viewUriOf(meta: Record<string, unknown> | undefined): string | null {
  if (!meta) return null
  const ui = meta['ui']
  const raw =
    ui && typeof ui === 'object' ? (ui as { resourceUri?: unknown }).resourceUri : undefined
  const uri = raw ?? meta['ui/resourceUri']
  const parsed = viewUriSchema.safeParse(uri)
  return parsed.success ? parsed.data : null
}

/** Which of the view's callers may call a tool (`_meta.ui.visibility`); default both. */
export function toolVisibility(meta: Record<string, unknown> | undefined): {
  model: boolean
  app: boolean
} {
  const ui = meta?.['ui']
  const v = ui && typeof ui === 'object' ? (ui as { visibility?: unknown }).visibility : undefined
  if (!Array.isArray(v)) return { model: true, app: true }
  return { model: v.includes('model'), app: v.includes('app') }
}

const domains = z.array(z.string().max(500)).max(50)

/** What a view's resource declares in its `_meta.ui` (unknown keys dropped). */
export const viewResourceMetaSchema = z.object({
  csp: z
    .object({
      connectDomains: domains.optional(),
      resourceDomains: domains.optional(),
      frameDomains: domains.optional(),
      baseUriDomains: domains.optional(),
    })
    .optional(),
  prefersBorder: z.boolean().optional(),
})

export type ViewResourceMeta = z.infer<typeof viewResourceMetaSchema>

/** the sources a view's own policy allows, after Cairn's checks */
export interface ViewCsp {
  connectDomains: string[]
  resourceDomains: string[]
  frameDomains: string[]
  baseUriDomains: string[]
}

/** A tool that has a view, and whether its server's views are allowed. */
export interface ToolViewInfo {
  server: string
  tool: string
  uri: string
  allowed: boolean
}

/** A tool's result as a view's call gets it. */
export interface ViewCallResult {
  content: ContentPart[]
  isError: boolean
  structuredContent?: unknown
}

/** What `mcp.openView` answers. */
export type OpenedView =
  | {
      status: 'ready'
      /** the document's address on the page's own origin (`/mcp-view/<token>`) */
      path: string
      /** the sources the view may use, as Cairn allows them */
      csp: ViewCsp
      /** declared sources Cairn refused (with why), for the card to say */
      refused: string[]
      prefersBorder: boolean | null
    }
  /** the user has not allowed views from this server */
  | { status: 'blocked' }
