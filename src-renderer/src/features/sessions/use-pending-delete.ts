/**
 * Delete with Undo: the chat disappears from the list at once, and "Chat deleted · Undo"
 * shows for `UNDO_MS`. Only when that runs out is `sessions.delete` called; Undo brings
 * the row back having deleted nothing. Closing the window (pagehide) deletes right away,
 * so a deletion the user did not undo is never lost. One deletion waits at a time: a
 * second one carries the first out.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import { useT } from '../../i18n'
import { usePlatform } from '../../state/context'
import { useErrorText } from '../../ui/error-text'
import { call, keys } from '../../state/queries'

export const UNDO_MS = 6_000

export interface PendingDelete {
  id: string
  title: string
}

export interface PendingDeletes {
  /** the chat waiting to be deleted (hidden from the list) */
  pending: PendingDelete | null
  /** what went wrong with the last deletion */
  error: string | null
  remove(p: PendingDelete): void
  undo(): void
  dismissError(): void
}

export function usePendingDelete(): PendingDeletes {
  const { bridge, client, live } = usePlatform()
  const [pending, setPending] = useState<PendingDelete | null>(null)
  const [error, setError] = useState<string | null>(null)
  const t = useT()
  const errorText = useErrorText()
  const current = useRef<{
    p: PendingDelete
    timer: ReturnType<typeof setTimeout>
    wasOpen: boolean
  } | null>(null)

  const commit = useCallback(() => {
    const c = current.current
    if (!c) return
    clearTimeout(c.timer)
    current.current = null
    setPending(null)
    call(bridge, 'sessions.delete', { id: c.p.id })
      .then(() => client.removeQueries({ queryKey: keys.conversation(c.p.id) }))
      .catch((e: unknown) => {
        setError(
          t('sidebar.deleteFailed', {
            title: c.p.title || t('chat.untitled'),
            error: errorText(e),
          }),
        )
      })
      .finally(() => void client.invalidateQueries({ queryKey: keys.sessions }))
  }, [bridge, client, t, errorText])

  const remove = useCallback(
    (p: PendingDelete) => {
      commit()
      const state = live.getState()
      const wasOpen = state.currentId === p.id
      if (wasOpen) state.open(null)
      current.current = { p, wasOpen, timer: setTimeout(commit, UNDO_MS) }
      setError(null)
      setPending(p)
    },
    [commit, live],
  )

  const undo = useCallback(() => {
    const c = current.current
    if (!c) return
    clearTimeout(c.timer)
    current.current = null
    setPending(null)
    if (c.wasOpen && live.getState().currentId === null) live.getState().open(c.p.id)
  }, [live])

  useEffect(() => {
    window.addEventListener('pagehide', commit)
    return () => {
      window.removeEventListener('pagehide', commit)
      commit()
    }
  }, [commit])

  return { pending, error, remove, undo, dismissError: useCallback(() => setError(null), []) }
}
