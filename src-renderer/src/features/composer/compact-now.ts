/** `/compact`: summarize the earlier conversation of this chat now, and say what came of it. */
import type { QueryClient } from '@tanstack/react-query'
import type { CairnBridge } from '../../../../src-preload/contract/bridge'
import { call, keys } from '../../state/queries'

export async function compactNow(
  bridge: CairnBridge,
  client: QueryClient,
  sessionId: string | null,
): Promise<{ kind: 'info' | 'error'; text: string }> {
  if (!sessionId) return { kind: 'info', text: 'There is nothing to summarize in a new chat.' }
  try {
    const r = await call(bridge, 'sessions.compact', { id: sessionId })
    await client.invalidateQueries({ queryKey: keys.conversation(sessionId) })
    if (!r.compacted) {
      return {
        kind: 'info',
        text: 'Nothing to summarize: the first message and the last 5 exchanges are always kept.',
      }
    }
    return r.fallback
      ? {
          kind: 'error',
          text: 'The summary could not be written, so the earlier messages were cut to their first 200 characters for the model. Undo it in the conversation.',
        }
      : {
          kind: 'info',
          text: `Summarized: about ${r.tokensBefore} → ${r.tokensAfter} tokens. Undo it in the conversation.`,
        }
  } catch (e) {
    return {
      kind: 'error',
      text: `Could not summarize: ${e instanceof Error ? e.message : String(e)}`,
    }
  }
}
