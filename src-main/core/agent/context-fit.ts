import { estimateMessageTokens, estimateRequestTokens } from '../llm/estimate'
import type { WireMessage, WireTool } from '../llm/types'

/**
 * Fits the request-time view into the model's context budget, without touching the stored
 * history (so nothing is lost, and a later, larger window gets the originals back):
 * 1. tool results older than the most recent turns are shortened (they are the bulk of a
 *    long session and the model has already acted on them);
 * 2. if that is not enough, the oldest whole turns are left out (a turn starts at a user
 *    message, so every tool call stays with its results) and the first kept user message
 *    says so.
 * The system prompt and the latest turn are always kept.
 */
export interface ContextBudget {
  /** estimated tokens (`core/llm/estimate.ts`) the request may use; 0 turns fitting off */
  maxTokens: number
  /** turns at the end that keep their tool results in full */
  keepRecentTurns?: number
  /** how much of an older tool result is kept */
  oldToolResultChars?: number
  /** messages never left out (pinned ones): the turns that hold them stay */
  keep?: ReadonlySet<WireMessage>
}

export interface FitDiagnostics {
  estimatedTokens: number
  shortenedToolResults: number
  omittedMessages: number
  /** turns (a user message and what follows it) left out */
  omittedRounds: number
}

/** Indexes where turns start: each user message after the leading system messages. */
function turnStarts(messages: readonly WireMessage[]): number[] {
  const starts: number[] = []
  messages.forEach((m, i) => {
    if (m.role === 'user') starts.push(i)
  })
  return starts
}

export function fitToContext(
  input: readonly WireMessage[],
  tools: readonly WireTool[],
  budget: ContextBudget,
): { messages: WireMessage[]; diagnostics: FitDiagnostics } {
  let messages = input.slice()
  const diagnostics: FitDiagnostics = {
    estimatedTokens: estimateRequestTokens(messages, tools),
    shortenedToolResults: 0,
    omittedMessages: 0,
    omittedRounds: 0,
  }
  const keep = budget.keep ?? new Set<WireMessage>()
  if (budget.maxTokens <= 0 || diagnostics.estimatedTokens <= budget.maxTokens) {
    return { messages, diagnostics }
  }
  const keepTurns = Math.max(1, budget.keepRecentTurns ?? 4)
  const keepChars = budget.oldToolResultChars ?? 500
  const starts = turnStarts(messages)
  const protectFrom =
    starts.length > keepTurns ? starts[starts.length - keepTurns]! : (starts[0] ?? 0)

  // 1. shorten older tool results
  messages = messages.map((m, i) => {
    const content = m['content']
    if (
      i >= protectFrom ||
      m.role !== 'tool' ||
      typeof content !== 'string' ||
      content.length <= keepChars
    ) {
      return m
    }
    diagnostics.shortenedToolResults++
    return {
      ...m,
      content: `${content.slice(0, keepChars)}\n[older tool output shortened from ${content.length} characters to fit the context window]`,
    }
  })
  let tokens = estimateRequestTokens(messages, tools)

  // 2. leave out the oldest turns, never the latest one nor one that holds a pinned message
  const lead = messages.findIndex((m) => m.role !== 'system')
  const firstKept = lead < 0 ? messages.length : lead
  const turnIdx = turnStarts(messages).filter((i) => i >= firstKept)
  const bounds = turnIdx.map((from, t) => [from, turnIdx[t + 1] ?? messages.length] as const)
  if (turnIdx.length > 0 && turnIdx[0]! > firstKept) bounds.unshift([firstKept, turnIdx[0]!])
  const dropped = new Set<number>()
  for (const [from, to] of bounds.slice(0, -1)) {
    if (tokens <= budget.maxTokens) break
    let pinned = false
    for (let i = from; i < to; i++) if (keep.has(input[i]!)) pinned = true
    if (pinned) continue
    for (let i = from; i < to; i++) {
      tokens -= estimateMessageTokens(messages[i]!)
      dropped.add(i)
    }
    diagnostics.omittedRounds++
  }
  if (dropped.size > 0) {
    diagnostics.omittedMessages = dropped.size
    const kept = messages.filter((_, i) => !dropped.has(i))
    const at = kept.findIndex((m, i) => i >= firstKept && m.role === 'user')
    const head = kept[at]
    if (head) {
      kept[at] = {
        ...head,
        content: `[${dropped.size} earlier messages of this conversation were left out to fit the model's context window.]\n\n${String(head['content'] ?? '')}`,
      }
    }
    messages = kept
  }
  diagnostics.estimatedTokens = estimateRequestTokens(messages, tools)
  return { messages, diagnostics }
}
