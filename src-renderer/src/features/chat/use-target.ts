/**
 * A search result opens its chat at the message it found: older pages load until that
 * message is there, the list scrolls to its row, and the row is highlighted for
 * `HIGHLIGHT_MS` (a tool result: the card of its call; a message on another branch: that
 * branch is opened first). The list stops following the
 * stream meanwhile ("Jump to latest" brings it back). The target comes from the nav store
 * (and so from the address, `#/session/<id>/message/<id>`).
 */
import { createContext, useContext, useEffect, useRef, useState, type RefObject } from 'react'
import type { VirtuosoHandle } from 'react-virtuoso'
import type { StoredMessage } from '../../../../src-preload/contract/dto'
import { useNav, usePlatform } from '../../state/context'
import type { Row } from '../../state/conversation'
import { fetchOlder, openBranch } from '../../state/queries'
import { answerKey } from '../../state/turn-reducer'
import './target.css'

export const HIGHLIGHT_MS = 4_000

/** the call id of the tool card to highlight, inside the highlighted row */
export const TargetCallContext = createContext<string | null>(null)
export const useTargetCall = (): string | null => useContext(TargetCallContext)

export interface TargetPlace {
  /** the key of the row that shows the message */
  rowKey: string
  /** for a tool result: the call it answers */
  callId: string | null
}

/**
 * Where a stored message is shown, by the rules of `storedRows`: a user message or a
 * notice is its own row; an answer is keyed by its turn and its place in it; a tool
 * result is shown in the card of its call, in the answer that made the call. Null when
 * the message is not among `messages`.
 */
export function targetPlace(
  messages: readonly StoredMessage[],
  messageId: string,
): TargetPlace | null {
  const at = messages.findIndex((m) => m.id === messageId)
  if (at < 0) return null
  const m = messages[at]!
  if (m.role === 'tool') {
    let a = at - 1
    while (a >= 0 && messages[a]!.role === 'tool') a--
    const call = messages[a]
    if (!call || call.role !== 'assistant') return null
    return { rowKey: answerRowKey(messages, a), callId: m.toolCallId }
  }
  if (m.role === 'assistant' && m.kind === 'message')
    return { rowKey: answerRowKey(messages, at), callId: null }
  return { rowKey: m.id, callId: null }
}

function answerRowKey(messages: readonly StoredMessage[], at: number): string {
  const m = messages[at]!
  if (!m.turnId) return m.id
  let n = 0
  for (let i = at - 1; i >= 0; i--) {
    const p = messages[i]!
    if (p.role === 'user' && p.kind === 'message') break
    if (p.turnId === m.turnId && p.role === 'assistant' && p.kind === 'message') n++
  }
  return answerKey(m.turnId, n)
}

export interface Shown {
  rowKey: string
  callId: string | null
}

export function useTarget(opts: {
  sessionId: string | null
  messages: readonly StoredMessage[]
  hasMore: boolean
  rows: readonly Row[]
  list: RefObject<VirtuosoHandle | null>
  /** stops following the stream */
  unfollow(): void
}): { shown: Shown | null; initialIndex: number | null } {
  const { bridge, client, nav } = usePlatform()
  const target = useNav((s) => s.target)
  const [shown, setShown] = useState<Shown | null>(null)
  const loading = useRef(false)
  const { sessionId, messages, hasMore, rows, list, unfollow } = opts
  const opened = useRef<string | null>(null)

  const mine = target && target.sessionId === sessionId ? target : null
  const place = mine ? targetPlace(messages, mine.messageId) : null
  const index = place ? rows.findIndex((r) => r.key === place.rowKey) : -1

  // not loaded yet: load older pages until it is; not on the open branch: open its branch
  useEffect(() => {
    if (!mine || place || !sessionId || loading.current) return
    if (!hasMore) {
      if (opened.current === mine.messageId) {
        nav.getState().setTarget(null)
        return
      }
      opened.current = mine.messageId
      loading.current = true
      openBranch(bridge, client, sessionId, { messageId: mine.messageId })
        .then((why) => {
          if (why) nav.getState().setTarget(null)
        })
        .catch(() => nav.getState().setTarget(null))
        .finally(() => (loading.current = false))
      return
    }
    loading.current = true
    fetchOlder(bridge, client, sessionId)
      .catch(() => nav.getState().setTarget(null))
      .finally(() => (loading.current = false))
  }, [mine, place, sessionId, hasMore, bridge, client, nav, messages])

  // on the branch but in no row (a tool result without its call): let go
  const hidden = place !== null && index < 0
  useEffect(() => {
    if (hidden && mine) nav.getState().setTarget(null)
  }, [hidden, mine, nav])

  // there: scroll to it, highlight it, then let go of the target
  const placed = place && index >= 0 ? place : null
  const placedKey = placed ? `${placed.rowKey}\n${placed.callId ?? ''}` : null
  useEffect(() => {
    if (!placed || !mine) return
    unfollow()
    setShown(placed)
    const go = (): void => list.current?.scrollToIndex({ index, align: 'start' })
    const frame = requestAnimationFrame(go)
    // once more after the rows around it have measured themselves
    const again = setTimeout(go, 150)
    const done = setTimeout(() => {
      setShown(null)
      if (nav.getState().target === mine) nav.getState().setTarget(null)
    }, HIGHLIGHT_MS)
    return () => {
      cancelAnimationFrame(frame)
      clearTimeout(again)
      clearTimeout(done)
    }
    // once per target and place (the rest is read at that moment)
  }, [mine, placedKey])

  return { shown, initialIndex: mine && index >= 0 ? index : null }
}
