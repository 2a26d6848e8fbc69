/** MCP tool results → Cairn's content parts, cut to a size the app can hold. */
import type { CallToolResult } from '@modelcontextprotocol/client'
import type { ContentPart } from '../../../src-preload/contract/dto'
import { capParts, MAX_RESULT_IMAGE_CHARS } from '../../core/agent/tool-content'
import type { ToolOutcome } from '../../core/ports'

/** characters of text one tool result keeps; the rest is cut with the truncation marker */
export const MAX_RESULT_CHARS = 1_000_000
/** characters of images (base64, all of a result's together) one tool result keeps */
export const MAX_IMAGE_BASE64_CHARS = MAX_RESULT_IMAGE_CHARS

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
 * Keeps what a server answered within what the app holds: `MAX_RESULT_CHARS` of text (text
 * parts and embedded resources together) and `MAX_IMAGE_BASE64_CHARS` of images, through the
 * one cap on a result's parts (`capParts`); structured content larger than the text cap is
 * left out, saying its size. The turn then cuts what it stores and shows to its own limit.
 */
export function capResult(
  parts: ContentPart[],
  toolName: string,
  structured?: unknown,
): { content: ContentPart[]; structuredContent?: unknown } {
  const content = capParts(parts, toolName, {
    maxChars: MAX_RESULT_CHARS,
    maxImageChars: MAX_IMAGE_BASE64_CHARS,
  })
  if (structured === undefined) return { content }
  const size = JSON.stringify(structured)?.length ?? 0
  if (size <= MAX_RESULT_CHARS) return { content, structuredContent: structured }
  content.push({
    type: 'text',
    text: `[structured content of ${size} characters from ${toolName} left out: too large]`,
  })
  return { content }
}

/** A tool's result as Cairn keeps it: its content and structured content capped, its `_meta` as sent. */
export function toOutcome(result: CallToolResult, tool: string): ToolOutcome {
  return {
    ...capResult(toContentParts(result.content as McpContent[]), tool, result.structuredContent),
    ...(result.isError ? { isError: true } : {}),
    // an MCP Apps view's data and the like travel in `_meta`: passed on untouched
    ...(result._meta ? { meta: result._meta as Record<string, unknown> } : {}),
  }
}
