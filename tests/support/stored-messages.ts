/** StoredMessage objects for tests of pure functions (the request view, the newest path). */
import type { StoredMessage } from '../../src-preload/contract/dto'

export type MessageInit = Partial<StoredMessage> & Pick<StoredMessage, 'role'>

/** A builder numbering its messages 1, 2, 3… (ids `m1`, `m2`, …) like one session. */
export function messageBuilder(): (p: MessageInit) => StoredMessage {
  let seq = 0
  return (p) => {
    seq++
    return {
      id: `m${seq}`,
      sessionId: 's',
      seq,
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
