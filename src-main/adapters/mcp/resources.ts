/**
 * A server's resources: listed (with their templates) and read into content parts that a
 * user message can carry. What a server sends is text, never markup; every text is cut to
 * a size with the same marker the model sees for long tool output.
 */
import type { Client } from '@modelcontextprotocol/client'
import type {
  McpResource,
  McpResourceTemplate,
} from '../../../src-preload/contract/resources-and-prompts'
import type { ContentPart } from '../../../src-preload/contract/dto'
import { truncateForModel } from '../../core/agent/tool-content'
import { label, readPages } from './paged-list'

/** characters of one attached resource's text */
export const MAX_RESOURCE_CHARS = 100_000
/** an attached image (base64) larger than this is replaced by a note */
export const MAX_RESOURCE_IMAGE_CHARS = 8 * 1024 * 1024

export function supportsResources(client: Client): boolean {
  return client.getServerCapabilities()?.resources !== undefined
}

export async function listResources(
  server: string,
  client: Client,
  signal?: AbortSignal,
): Promise<{ resources: McpResource[]; templates: McpResourceTemplate[] }> {
  if (!supportsResources(client)) return { resources: [], templates: [] }
  const resources = await readPages(
    async (cursor) => {
      const r = await client.listResources(
        cursor ? { cursor } : undefined,
        signal ? { signal } : {},
      )
      return { items: r.resources, nextCursor: r.nextCursor }
    },
    (x): McpResource => ({
      server,
      uri: label(x.uri, 4096),
      name: label(x.name),
      ...(x.title ? { title: label(x.title) } : {}),
      ...(x.description ? { description: label(x.description) } : {}),
      ...(x.mimeType ? { mimeType: label(x.mimeType, 200) } : {}),
    }),
  )
  const templates = await readPages(
    async (cursor) => {
      const t = await client
        .listResourceTemplates(cursor ? { cursor } : undefined, signal ? { signal } : {})
        .catch(() => null) // templates are optional even for servers with resources
      return t && { items: t.resourceTemplates, nextCursor: t.nextCursor }
    },
    (t): McpResourceTemplate => ({
      server,
      uriTemplate: label(t.uriTemplate, 4096),
      name: label(t.name),
      ...(t.title ? { title: label(t.title) } : {}),
      ...(t.description ? { description: label(t.description) } : {}),
      ...(t.mimeType ? { mimeType: label(t.mimeType, 200) } : {}),
      variables: templateVariables(t.uriTemplate),
    }),
  )
  return { resources, templates }
}

/** the variable names of an RFC 6570 template, in order (`{a}`, `{+a}`, `{?a,b}`, `{a*}`) */
export function templateVariables(template: string): string[] {
  const names: string[] = []
  for (const m of template.slice(0, 4096).matchAll(/\{([^{}]{1,200})\}/g)) {
    for (const raw of m[1]!.replace(/^[+#./;?&]/, '').split(',')) {
      const name = raw.replace(/(\*|:\d+)$/, '').trim()
      if (name && !names.includes(name)) names.push(name)
    }
  }
  return names
}

/** fills a template's variables (each value percent-encoded, simple expansion) */
export function expandTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{([+#./;?&]?)([^{}]{1,200})\}/g, (_m, op: string, body: string) => {
    const names = body.split(',').map((n) => n.replace(/(\*|:\d+)$/, '').trim())
    const reserved = op === '+' || op === '#'
    const enc = (v: string): string => (reserved ? encodeURI(v) : encodeURIComponent(v))
    const defined = names.filter((n) => values[n] !== undefined)
    if (defined.length === 0) return ''
    if (op === '?' || op === '&') {
      const pairs = defined.map((n) => `${n}=${encodeURIComponent(values[n]!)}`)
      return `${op}${pairs.join('&')}`
    }
    const sep = op === '.' || op === '/' || op === ';' ? op : ','
    const prefix = op === '#' || op === '.' || op === '/' || op === ';' ? op : ''
    return prefix + defined.map((n) => enc(values[n]!)).join(sep)
  })
}

/**
 * Reads a resource into parts for a user message: first a link naming it (the chip), then
 * its text (cut at `MAX_RESOURCE_CHARS`), its images, or a note for other binary content.
 */
export async function readResourceParts(
  client: Client,
  server: string,
  uri: string,
  name: string | undefined,
  signal?: AbortSignal,
): Promise<ContentPart[]> {
  const r = await client.readResource({ uri }, signal ? { signal } : {})
  const first = r.contents[0]
  const parts: ContentPart[] = [
    {
      type: 'resource_link',
      uri,
      name: label(name ?? uri),
      ...(first?.mimeType ? { mimeType: label(first.mimeType, 200) } : {}),
    },
  ]
  let room = MAX_RESOURCE_CHARS
  for (const c of r.contents.slice(0, 50)) {
    const mimeType = c.mimeType ? label(c.mimeType, 200) : undefined
    if ('text' in c && typeof c.text === 'string') {
      const text = truncateForModel(c.text, Math.max(0, room), `${server}: ${c.uri}`)
      room -= Math.min(c.text.length, room)
      parts.push({
        type: 'resource',
        uri: label(c.uri, 4096),
        ...(mimeType ? { mimeType } : {}),
        text,
      })
      continue
    }
    const blob = 'blob' in c && typeof c.blob === 'string' ? c.blob : ''
    if (mimeType?.startsWith('image/') && blob.length <= MAX_RESOURCE_IMAGE_CHARS) {
      parts.push({ type: 'image', mimeType, data: blob })
      continue
    }
    const bytes = Math.floor((blob.length * 3) / 4)
    parts.push({
      type: 'resource',
      uri: label(c.uri, 4096),
      ...(mimeType ? { mimeType } : {}),
      text: `[binary content (${mimeType ?? 'unknown type'}, about ${bytes} bytes), not shown to the model]`,
    })
  }
  return parts
}
