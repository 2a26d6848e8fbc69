/** Session records as the routes give them, for the renderer tests. */
import type { SessionRecord } from '../../../src-preload/contract/dto'

/** An empty chat titled by its id, with no provider, model or workspace; `over` sets the rest. */
export function sessionRecord(
  over: Partial<SessionRecord> & Pick<SessionRecord, 'id'>,
): SessionRecord {
  return {
    title: over.id,
    createdAt: 0,
    updatedAt: 0,
    provider: null,
    model: null,
    workspace: null,
    systemPrompt: null,
    todos: [],
    usage: { inputTokens: 0, outputTokens: 0 },
    pinned: false,
    archived: false,
    messageCount: 0,
    leafSeq: null,
    ...over,
  }
}
