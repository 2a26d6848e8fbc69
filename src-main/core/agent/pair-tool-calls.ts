import type { WireMessage } from '../llm/types'

/**
 * The last step of the request view: every tool call sent is answered by exactly one
 * result, right after its assistant message, in the order of the calls; nothing refers to
 * a call that is not there. Strict providers reject anything else. A history the loop
 * wrote is already like this; a summary's range, a corrupt or imported history may not
 * be: a result without its call is left out, a call without a result is left out, a
 * second result for one call is left out, and results are put in the order of the calls.
 * Messages that need no change are passed through as they are (same objects); `replaced`
 * hears of each one sent as a changed copy.
 */
export function pairToolCalls(
  messages: readonly WireMessage[],
  replaced: (from: WireMessage, to: WireMessage) => void = () => {},
): WireMessage[] {
  const out: WireMessage[] = []
  let i = 0
  while (i < messages.length) {
    const m = messages[i]!
    i++
    if (m.role === 'tool') continue // not right after its call
    const calls = toolCalls(m)
    if (m.role !== 'assistant' || calls.length === 0) {
      out.push(m)
      continue
    }
    const results = new Map<string, WireMessage>()
    while (i < messages.length && messages[i]!.role === 'tool') {
      const r = messages[i]!
      const id = String(r['tool_call_id'] ?? '')
      if (!results.has(id)) results.set(id, r)
      i++
    }
    const seen = new Set<string>()
    const answered = calls.filter((c) => {
      if (seen.has(c.id) || !results.has(c.id)) return false
      seen.add(c.id)
      return true
    })
    if (answered.length === calls.length && results.size === calls.length) {
      out.push(m)
    } else if (answered.length > 0) {
      const copy = { ...m, tool_calls: answered }
      replaced(m, copy)
      out.push(copy)
    } else {
      const content = m['content']
      if (typeof content === 'string' && content !== '') {
        const { tool_calls: _dropped, ...rest } = m
        replaced(m, rest as WireMessage)
        out.push(rest as WireMessage)
      }
      continue
    }
    for (const c of answered) out.push(results.get(c.id)!)
  }
  return out
}

function toolCalls(m: WireMessage): { id: string }[] {
  const calls = m['tool_calls']
  return Array.isArray(calls) ? (calls as { id: string }[]) : []
}
