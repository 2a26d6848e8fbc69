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
    case 'attachment':
      return `[attached file: ${part.name}]`
  }
}

function approxBytes(base64: string): number {
  return Math.floor((base64.length * 3) / 4)
}

const MARKER = '\n[OUTPUT TRUNCATED: showing '
/** the end of a marker: `<n> of <total> characters from <tool>]`, nothing after it */
const MARKER_TAIL = /^\d+ of (\d+) characters from [^\n\]]*\]$/

/** Cuts text above `max` characters and says so, in words the model can act on. */
export function truncateForModel(text: string, max: number, toolName: string): string {
  if (text.length <= max) return text
  // text cut before (by the server's adapter) keeps the size it had then
  const at = text.lastIndexOf(MARKER)
  const before = at >= 0 ? MARKER_TAIL.exec(text.slice(at + MARKER.length)) : null
  const total = before ? Number(before[1]) : text.length
  return text.slice(0, max) + `${MARKER}${max} of ${total} characters from ${toolName}]`
}

/** characters of images (base64) one tool result keeps in the session: one image's worth */
export const MAX_RESULT_IMAGE_CHARS = 16 * 1024 * 1024

export interface PartLimits {
  /** characters of text (text parts and embedded resources together) */
  maxChars: number
  /** characters of images (base64, all of them together) */
  maxImageChars: number
}

const aboutMb = (base64Chars: number): number => Math.round((base64Chars * 3) / 4 / 1_000_000)

/**
 * The one cap on a tool result's parts: the text of text parts and embedded resources together
 * within `maxChars` (the part that crosses it is cut with the marker the model sees, later text
 * is left out), images within `maxImageChars` together (one that does not fit is left out).
 * What was left out is said at the end in words, with its size; nothing is dropped silently.
 */
export function capParts(
  parts: ContentPart[],
  toolName: string,
  limits: PartLimits,
): ContentPart[] {
  const out: ContentPart[] = []
  let room = limits.maxChars
  let imageRoom = limits.maxImageChars
  let omittedChars = 0
  let omittedImages = 0
  let omittedImageChars = 0
  const keep = (text: string): string | null => {
    if (room <= 0) {
      omittedChars += text.length
      return null
    }
    const kept = truncateForModel(text, room, toolName)
    room -= Math.min(text.length, room)
    return kept
  }
  for (const p of parts) {
    if (p.type === 'image') {
      if (p.data.length > imageRoom) {
        omittedImages++
        omittedImageChars += p.data.length
      } else {
        imageRoom -= p.data.length
        out.push(p)
      }
    } else if (p.type === 'text') {
      const text = keep(p.text)
      if (text !== null) out.push({ type: 'text', text })
    } else if (p.type === 'resource' && p.text !== undefined) {
      const { text: _whole, ...rest } = p
      const text = keep(p.text)
      out.push(text === null ? rest : { ...rest, text })
    } else out.push(p)
  }
  if (omittedChars > 0)
    out.push({ type: 'text', text: `[${omittedChars} more characters from ${toolName} left out]` })
  if (omittedImages > 0)
    out.push({
      type: 'text',
      text: `[${omittedImages} ${omittedImages === 1 ? 'image' : 'images'} (about ${aboutMb(omittedImageChars)} MB) from ${toolName} left out: at most ${aboutMb(limits.maxImageChars)} MB of images are kept]`,
    })
  return out
}

/** Parts worth keeping for the UI beyond the text (images, links). */
export function richParts(outcome: ToolOutcome): ContentPart[] | null {
  return outcome.content.some((p) => p.type !== 'text') ? outcome.content : null
}
