/**
 * Reading a tool's view (MCP Apps): the `ui://` resource its `_meta.ui.resourceUri` names,
 * which must be one HTML document of the type `text/html;profile=mcp-app`, within a size.
 * Its `_meta.ui` (the content's, else the listed resource's) says which sources it needs;
 * what it says is checked with zod here and narrowed by the host before it is used.
 */
import type { Client } from '@modelcontextprotocol/client'
import {
  MAX_VIEW_HTML_CHARS,
  VIEW_MIME_TYPE,
  viewResourceMetaSchema,
  type ViewResourceMeta,
} from '../../../src-preload/contract/mcp-apps'
import { ExpectedError } from '../../core/errors'
import type { ViewResource } from '../../core/mcp-ports'

/** a view Cairn will not show (its type, its size): `unavailable`, saying why */
export class ViewResourceError extends ExpectedError {
  constructor(message: string) {
    super('unavailable', message)
  }
}

/** a MIME type's essence and profile, without spaces or case: `text/html;profile=mcp-app` */
function normalMime(mime: string): string {
  return mime.toLowerCase().replace(/\s+/g, '')
}

function uiMetaOf(meta: unknown): ViewResourceMeta {
  const ui = meta && typeof meta === 'object' ? (meta as { ui?: unknown }).ui : undefined
  const parsed = viewResourceMetaSchema.safeParse(ui ?? {})
  return parsed.success ? parsed.data : {}
}

/** Reads the view `uri` of `server` through its client. */
export async function readViewResource(
  client: Client,
  server: string,
  uri: string,
  signal?: AbortSignal,
): Promise<ViewResource> {
  const r = await client.readResource({ uri }, signal ? { signal } : {})
  const c = r.contents.find((x) => x.uri === uri) ?? r.contents[0]
  if (!c) throw new ViewResourceError(`The server "${server}" sent nothing for its view ${uri}.`)
  if (!c.mimeType || normalMime(c.mimeType) !== VIEW_MIME_TYPE) {
    throw new ViewResourceError(
      `The server "${server}" sent its view ${uri} as ${c.mimeType ?? 'an unnamed type'}, not ${VIEW_MIME_TYPE}: it is not shown.`,
    )
  }
  const html =
    'text' in c && typeof c.text === 'string'
      ? c.text
      : 'blob' in c && typeof c.blob === 'string' && c.blob.length <= MAX_VIEW_HTML_CHARS * 2
        ? Buffer.from(c.blob, 'base64').toString('utf8')
        : null
  if (html === null || html.length > MAX_VIEW_HTML_CHARS) {
    throw new ViewResourceError(
      `The server "${server}" sent a view (${uri}) larger than ${MAX_VIEW_HTML_CHARS} characters: it is not shown.`,
    )
  }
  return { html, meta: uiMetaOf(c._meta) }
}
