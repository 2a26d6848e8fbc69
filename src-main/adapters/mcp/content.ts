/** MCP tool results → Cairn's content parts, cut to a size the app can hold. */
import type { ContentPart } from '../../../src-preload/contract/dto'
import { truncateForModel } from '../../core/agent/tool-content'

/** characters of text one tool result keeps; the rest is cut with the truncation marker */
export const MAX_RESULT_CHARS = 1_000_000
/** an image (base64) larger than this is replaced by a note */
export const MAX_IMAGE_BASE64_CHARS = 16 * 1024 * 1024

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

/**
 * Keeps a result within `MAX_RESULT_CHARS` of text (the text parts together): the part that
 * crosses the limit is cut with the same marker the model sees for long tool output, later
 * parts are left out. Oversized images become a note. Nothing is silently dropped.
 */
export function capResult(
  parts: ContentPart[],
  toolName: string,
  maxChars = MAX_RESULT_CHARS,
): ContentPart[] {
  const out: ContentPart[] = []
  let room = maxChars
  let omitted = 0
  for (const p of parts) {
    if (p.type === 'image' && p.data.length > MAX_IMAGE_BASE64_CHARS) {
      out.push({
        type: 'text',
        text: `[image of about ${Math.round((p.data.length * 3) / 4 / 1_000_000)} MB from ${toolName} left out: too large]`,
      })
      continue
    }
    if (p.type !== 'text') {
      out.push(p)
      continue
    }
    if (room <= 0) {
      omitted += p.text.length
      continue
    }
    if (p.text.length <= room) {
      out.push(p)
      room -= p.text.length
      continue
    }
    out.push({ type: 'text', text: truncateForModel(p.text, room, toolName) })
    room = 0
  }
  if (omitted > 0)
    out.push({ type: 'text', text: `[${omitted} more characters from ${toolName} left out]` })
  return out
}
