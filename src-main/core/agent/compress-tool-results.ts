import type { WireMessage } from '../llm/types'

/**
 * Old tool results in the request view: a result older than the last `keepTurns` turns
 * (a turn starts at a user message) is cut to its first `keepChars` characters with a
 * marker, unless its tool is one the user marked never to compress (an authentication
 * tool, say). The model has acted on those results already; they are the bulk of a long
 * session. Works on a copy: the messages given are not changed.
 */
export interface CompressOptions {
  /** turns at the end whose tool results stay whole (default 10, at least 1) */
  keepTurns?: number
  /** how much of an older result is kept (default 200) */
  keepChars?: number
  /** tool names whose results are never cut */
  neverCompress?: readonly string[]
}

export const DEFAULT_KEEP_TOOL_TURNS = 10
export const OLD_TOOL_RESULT_CHARS = 200

export function compressOldToolResults(
  messages: readonly WireMessage[],
  opts: CompressOptions = {},
): { messages: WireMessage[]; compressed: number } {
  const keepTurns = Math.max(1, opts.keepTurns ?? DEFAULT_KEEP_TOOL_TURNS)
  const keepChars = opts.keepChars ?? OLD_TOOL_RESULT_CHARS
  const never = new Set(opts.neverCompress ?? [])
  let turnsAfter = 0
  const protectFrom = (() => {
    for (let i = messages.length - 1; i >= 0; i--) {
      if (messages[i]?.role === 'user' && ++turnsAfter >= keepTurns) return i
    }
    return 0
  })()
  const names = new Map<string, string>()
  let compressed = 0
  const out = messages.map((m, i) => {
    const calls = m['tool_calls']
    if (Array.isArray(calls)) {
      for (const c of calls as { id: string; function: { name: string } }[])
        names.set(c.id, c.function.name)
    }
    const content = m['content']
    if (i >= protectFrom || m.role !== 'tool' || typeof content !== 'string') return m
    if (content.length <= keepChars) return m
    const name = names.get(String(m['tool_call_id'] ?? ''))
    if (name !== undefined && never.has(name)) return m
    compressed++
    return {
      ...m,
      content: `${content.slice(0, keepChars)}\n[older tool output cut from ${content.length} to ${keepChars} characters; the full result is in the stored conversation]`,
    }
  })
  return { messages: out, compressed }
}
