/** MCP tool results → Cairn's content parts. */
import type { ContentPart } from '../../../src-preload/contract/dto'

type McpContent = { type: string } & Record<string, unknown>

export function toContentParts(content: readonly McpContent[]): ContentPart[] {
  const out: ContentPart[] = []
  for (const c of content) {
    switch (c.type) {
      case 'text':
        out.push({ type: 'text', text: String(c['text'] ?? '') })
        break
      case 'image':
        out.push({
          type: 'image',
          mimeType: String(c['mimeType'] ?? 'image/png'),
          data: String(c['data'] ?? ''),
        })
        break
      case 'audio':
        out.push({
          type: 'text',
          text: `[audio: ${String(c['mimeType'] ?? 'unknown type')}, not shown to the model]`,
        })
        break
      case 'resource_link':
        out.push({
          type: 'resource_link',
          uri: String(c['uri'] ?? ''),
          ...(typeof c['name'] === 'string' ? { name: c['name'] } : {}),
          ...(typeof c['mimeType'] === 'string' ? { mimeType: c['mimeType'] } : {}),
        })
        break
      case 'resource': {
        const r = (c['resource'] ?? {}) as Record<string, unknown>
        out.push({
          type: 'resource',
          uri: String(r['uri'] ?? ''),
          ...(typeof r['mimeType'] === 'string' ? { mimeType: r['mimeType'] } : {}),
          ...(typeof r['text'] === 'string' ? { text: r['text'] } : {}),
        })
        break
      }
      default:
        out.push({ type: 'text', text: `[unsupported content of type ${c.type}]` })
    }
  }
  return out
}
