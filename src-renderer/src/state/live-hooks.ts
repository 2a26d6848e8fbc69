/**
 * What the conversation reads of the live store, so that a streamed frame renders only what
 * it changed: the list of rows follows a turn's `rowsKey` (items coming and going, statuses,
 * the end), and the row of an answer that streams follows that answer alone.
 */
import { useCallback, useRef, useSyncExternalStore } from 'react'
import { usePlatform } from './context'
import { emptyLive, NEW_CHAT, type LiveActions, type LiveState } from './live-types'
import type { AnswerItem, TurnView } from './turn-reducer'

type State = LiveState & LiveActions

/**
 * `selector` of the live store, kept as it was while `equal` says the new value is the same:
 * the component renders again only when it is not.
 */
export function useLiveWith<T>(selector: (s: State) => T, equal: (a: T, b: T) => boolean): T {
  const { live } = usePlatform()
  const last = useRef<{ value: T } | null>(null)
  const read = useCallback((): T => {
    const next = selector(live.getState())
    if (last.current && equal(last.current.value, next)) return last.current.value
    last.current = { value: next }
    return next
  }, [live, selector, equal])
  return useSyncExternalStore(live.subscribe, read, read)
}

const sameRows = (a: TurnView | null, b: TurnView | null): boolean =>
  a === b || (a !== null && b !== null && a.turnId === b.turnId && a.rowsKey === b.rowsKey)

/**
 * A session's live turn as far as its rows go: the same view while only the text of its
 * answers grows (their rows read it with `useLiveAnswer`).
 */
export function useLiveTurnRows(sessionKey: string): TurnView | null {
  const select = useCallback((s: State) => s.sessions[sessionKey]?.turn ?? null, [sessionKey])
  return useLiveWith(select, sameRows)
}

/** The item of the current session's live turn with this row key (the newest items first). */
export function liveAnswer(s: LiveState, key: string): AnswerItem | null {
  const items = (s.sessions[s.currentId ?? NEW_CHAT] ?? emptyLive).turn?.items ?? []
  for (let i = items.length - 1; i >= 0; i--) {
    const it = items[i]!
    if (it.key === key) return it.kind === 'answer' ? it : null
  }
  return null
}

const same = <T>(a: T, b: T): boolean => a === b

/** The answer with this row key as it streams (null when `live` is false or it is gone). */
export function useLiveAnswer(key: string, live: boolean): AnswerItem | null {
  const select = useCallback((s: State) => (live ? liveAnswer(s, key) : null), [key, live])
  return useLiveWith(select, same)
}
