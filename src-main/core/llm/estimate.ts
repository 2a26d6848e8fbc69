/**
 * Token estimates for servers that send no usage: about four characters per token.
 */
import type { WireMessage } from './types'

export function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4)
}

function partChars(part: unknown): number {
  if (typeof part === 'string') return part.length
  if (part !== null && typeof part === 'object') {
    const text = (part as { text?: unknown }).text
    if (typeof text === 'string') return text.length
  }
  return 0
}

/** The characters of the request messages that become tokens: text, tool calls, reasoning. */
export function messageChars(messages: readonly WireMessage[]): number {
  let n = 0
  for (const m of messages) {
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
  }
  return n
}
