/**
 * What the conversation can do about what the model is given: show or hide what a summary
 * stands in for, undo a compaction, keep a message in context. A change reloads the
 * conversation; a failure is said in the conversation (`onError`: what failed, and why).
 */
import type { Dispatch, SetStateAction } from 'react'
import type { QueryClient } from '@tanstack/react-query'
import type { CairnBridge } from '../../../../src-preload/contract/bridge'
import { call, keys } from '../../state/queries'
import type { RowActions } from './rows/actions'

export function contextActions(
  bridge: CairnBridge,
  client: QueryClient,
  sessionId: string | null,
  setExpanded: Dispatch<SetStateAction<ReadonlySet<string>>>,
  onError: (failure: { what: 'undo' | 'pin' | 'unpin'; error: unknown }) => void,
): Pick<RowActions, 'toggleSummary' | 'undoCompaction' | 'pin'> {
  const reload = (): void => {
    if (sessionId) void client.invalidateQueries({ queryKey: keys.conversation(sessionId) })
  }
  const failed = (what: 'undo' | 'pin' | 'unpin') => (error: unknown) => onError({ what, error })
  return {
    toggleSummary: (summaryId) =>
      setExpanded((s) => {
        const next = new Set(s)
        if (!next.delete(summaryId)) next.add(summaryId)
        return next
      }),
    undoCompaction: (summaryId) => {
      if (!sessionId) return
      call(bridge, 'sessions.undoCompaction', { id: sessionId, summaryId })
        .then(reload)
        .catch(failed('undo'))
    },
    pin: (messageId, pinned) => {
      if (!sessionId) return
      call(bridge, 'messages.pin', { sessionId, messageId, pinned })
        .then(reload)
        .catch(failed(pinned ? 'pin' : 'unpin'))
    },
  }
}
