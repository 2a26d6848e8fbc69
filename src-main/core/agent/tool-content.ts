import type { ContentPart } from '../../../src-preload/contract/dto'
import type { ToolOutcome } from '../ports'

/**
 * A tool result reaches the model as plain text: the text parts joined, other parts
 * described in a line each, never a JSON wrapper.
 */
export function outcomeToText(outcome: ToolOutcome): string {
  const lines: string[] = []
  for (const part of outcome.content) lines.push(describePart(part))
  if (lines.length === 0 && outcome.structuredContent !== undefined) {
    lines.push(JSON.stringify(outcome.structuredContent))
  }
  return lines.join('\n')
}

function describePart(part: ContentPart): string {
  switch (part.type) {
    case 'text':
      return part.text
    case 'image':
      return `[image: ${part.mimeType}, ${approxBytes(part.data)} bytes]`
    case 'resource_link':
      return `[resource link: ${part.name ? `${part.name} ` : ''}${part.uri}]`
    case 'resource':
      return part.text ?? `[resource: ${part.uri}${part.mimeType ? ` (${part.mimeType})` : ''}]`
  }
}

function approxBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4)
}

/** Cuts text above `max` characters and says so, in words the model can act on. */
export function truncateForModel(text: string, max: number, toolName: string): string {
  if (text.length <= max) return text
  return (
    text.slice(0, max) +
    `\n[OUTPUT TRUNCATED: showing ${max} of ${text.length} characters from ${toolName}]`
  )
}

/** Parts worth keeping for the UI beyond the text (images, links). */
export function richParts(outcome: ToolOutcome): ContentPart[] | null {
  return outcome.content.some((p) => p.type !== 'text') ? outcome.content : null
}
