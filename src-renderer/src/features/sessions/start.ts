/**
 * How the window starts: with no session in the address it reopens the chat the user was
 * last active in, unless they already asked for a new chat (New chat, Ctrl/Cmd+N) or
 * opened something else before the list arrived. The address `#/new` asks for a new chat
 * from the start (a bookmark, or a benchmark measuring from the new-chat screen).
 */
import { useEffect, useRef } from 'react'
import type { SessionRecord } from '../../../../src-preload/contract/dto'
import { usePlatform, type AppEnv } from '../../state/context'

/** the address the window was loaded with */
const loadedWith = typeof location === 'undefined' ? '' : location.hash

/** the windows (by their live store) where the user chose a new chat */
const choseNew = new WeakSet<object>()

export function startNewChat(env: AppEnv): void {
  choseNew.add(env.live)
  env.nav.getState().showChat()
  env.live.getState().open(null)
}

/** the most recently active of the sessions (pinned ones sort first in the list) */
export function lastActive(sessions: readonly SessionRecord[]): SessionRecord | null {
  let best: SessionRecord | null = null
  for (const s of sessions) if (!best || s.updatedAt > best.updatedAt) best = s
  return best
}

/** Call with the first page of the list once it is loaded; acts once per window. */
export function useReopenLast(sessions: readonly SessionRecord[] | undefined): void {
  const env = usePlatform()
  const done = useRef(false)
  useEffect(() => {
    if (done.current || !sessions) return
    done.current = true
    if (loadedWith === '#/new' || choseNew.has(env.live)) return
    if (env.live.getState().currentId !== null) return
    const last = lastActive(sessions)
    if (last) env.live.getState().open(last.id)
  }, [sessions, env])
}
