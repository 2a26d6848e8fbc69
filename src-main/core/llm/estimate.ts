/**
 * The app's one token estimate: about four characters of text per token. It sizes requests
 * for the context window and stands in for usage when a server sends none. Attached images
 * count by their size in pixels (`imageTokens`), other images and non-text parts a fixed
 * number of tokens each, never the length of their base64 data.
 */
import type { WireMessage, WireTool } from './types'

export const CHARS_PER_TOKEN = 4
/** what one image (or other non-text part) is counted as, in tokens */
export const NON_TEXT_PART_TOKENS = 1_000

/**
 * On an `image_url` part Cairn made from an attached image: the tokens it is counted as
 * (from its size in pixels, `imageTokens`). A symbol, so it never reaches the wire.
 */
export const IMAGE_TOKENS: unique symbol = Symbol('cairn.imageTokens')

/**
 * An image's tokens by OpenAI's rule for a detailed image, which Cairn states as its
 * estimate for every provider: scaled to fit 2048×2048, then its short side to 768, it costs
 * 85 tokens and 170 for each 512-pixel tile.
 */
export function imageTokens(width: number, height: number): number {
  if (width <= 0 || height <= 0) return NON_TEXT_PART_TOKENS
  let w = width
  let h = height
  const fit = Math.min(1, 2048 / Math.max(w, h))
  w *= fit
  h *= fit
  const short = Math.min(1, 768 / Math.min(w, h))
  w *= short
  h *= short
  return 85 + 170 * Math.ceil(w / 512) * Math.ceil(h / 512)
}

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / CHARS_PER_TOKEN)
}

function partChars(part: unknown): number {
  if (typeof part === 'string') return part.length
  if (part !== null && typeof part === 'object') {
    const p = part as { type?: unknown; text?: unknown }
    if (p.type === 'text' || (p.type === undefined && typeof p.text === 'string'))
      return typeof p.text === 'string' ? p.text.length : 0
    const tokens = (part as { [IMAGE_TOKENS]?: unknown })[IMAGE_TOKENS]
    return (typeof tokens === 'number' ? tokens : NON_TEXT_PART_TOKENS) * CHARS_PER_TOKEN
  }
  return 0
}

/** The characters of one request message that become tokens: text, tool calls, reasoning. */
function oneMessageChars(m: WireMessage): number {
  let n = 0
  const content = m['content']
  if (typeof content === 'string') n += content.length
  else if (Array.isArray(content)) for (const p of content) n += partChars(p)
  const reasoning = m['reasoning_content'] ?? m['reasoning']
  if (typeof reasoning === 'string') n += reasoning.length
  const calls = m['tool_calls']
  if (Array.isArray(calls)) {
    for (const c of calls) {
      const fn = (c as { function?: { name?: unknown; arguments?: unknown } } | null)?.function
      if (typeof fn?.name === 'string') n += fn.name.length
      if (typeof fn?.arguments === 'string') n += fn.arguments.length
    }
  }
  return n
}

/** The characters of the request messages that become tokens (non-text parts at a fixed cost). */
export function messageChars(messages: readonly WireMessage[]): number {
  let n = 0
  for (const m of messages) n += oneMessageChars(m)
  return n
}

/** The characters of the tool definitions offered with a request. */
export function toolChars(tools: readonly WireTool[] = []): number {
  let n = 0
  for (const t of tools) n += JSON.stringify(t).length
  return n
}

/** Estimated tokens of a request: its messages and its tool definitions. */
export function estimateRequestTokens(
  messages: readonly WireMessage[],
  tools: readonly WireTool[] = [],
): number {
  return estimateTokens(messageChars(messages) + toolChars(tools))
}

/** Estimated tokens of one message (for adding up parts of a request). */
export function estimateMessageTokens(m: WireMessage): number {
  return estimateTokens(oneMessageChars(m))
}
