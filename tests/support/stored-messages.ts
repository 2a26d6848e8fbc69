/** StoredMessage objects for tests of pure functions (the request view, the newest path). */
import type { StoredMessage } from '../../src-preload/contract/dto'

export type MessageInit = Partial<StoredMessage> & Pick<StoredMessage, 'role'>

/**
 * A builder numbering its messages 1, 2, 3… (ids `m1`, `m2`, …) like one session. Unless
 * given, each message follows the one before as the store would have it from a history
 * written without parents (`deriveParents`: a message that `supersedes` another follows
 * what that one followed; nothing follows a summary).
 */
export function messageBuilder(): (p: MessageInit) => StoredMessage {
  let seq = 0
  let previous: number | null = null
  const parents = new Map<number, number | null>()
  return (p) => {
    seq++
    const kind = p.kind ?? 'message'
    const replaced = p.supersedes != null ? parents.get(p.supersedes) : undefined
    const parentSeq =
      p.parentSeq !== undefined ? p.parentSeq : replaced !== undefined ? replaced : previous
    parents.set(seq, parentSeq)
    if (kind !== 'summary') previous = seq
    return {
      id: `m${seq}`,
      sessionId: 's',
      seq,
      parentSeq,
      turnId: null,
      kind: 'message',
      content: '',
      parts: null,
      reasoning: null,
      providerExtras: null,
      toolCalls: null,
      toolCallId: null,
      toolName: null,
      provider: null,
      model: null,
      status: 'complete',
      failureKind: null,
      isError: false,
      usage: null,
      supersedes: null,
      durationMs: null,
      reasoningMs: null,
      decidedBy: null,
      servedModel: null,
      createdAt: 0,
      ...p,
    }
  }
}
