/**
 * The conversation: a virtualized list (only what is near the viewport is in the page), so
 * ten thousand messages open and scroll as fast as ten. It opens at the newest messages,
 * loads older pages as the user scrolls up, follows the stream only while the user is at
 * the bottom, and offers "Jump to latest" otherwise.
 */
import {
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
  type JSX,
  type ReactNode,
} from 'react'
import './conversation-alert.css'
import { Virtuoso, type VirtuosoHandle } from 'react-virtuoso'
import type { StoredMessage } from '../../../../src-preload/contract/dto'
import { usePlatform, useLive } from '../../state/context'
import { liveRows, storedRows, type Row } from '../../state/conversation'
import { emptyLive, NEW_CHAT } from '../../state/live-store'
import { fetchOlder, useConversation } from '../../state/queries'
import { contextActions } from './context-actions'
import { RowActionsContext, type RowActions } from './rows/actions'
import { AnswerRow } from './rows/AnswerRow'
import { EndRow, NoticeRow, SummaryRow } from './rows/NoticeRows'
import { UserRow } from './rows/UserRow'
import { prepareMarkdown } from '../../ui/markdown'
import { useFollow } from './use-follow'
import { TargetCallContext, useTarget } from './use-target'

const START = 10_000_000
/** answers parsed ahead when a conversation opens */
const PREPARE = 10
const NO_MESSAGES: StoredMessage[] = []

function RowView(props: { row: Row }): JSX.Element {
  const { row } = props
  switch (row.kind) {
    case 'user':
      return <UserRow row={row} />
    case 'answer':
      return <AnswerRow row={row} />
    case 'notice':
      return <NoticeRow row={row} />
    case 'summary':
      return <SummaryRow row={row} />
    case 'end':
      return <EndRow row={row} />
  }
}

function lastUser(messages: readonly StoredMessage[]): StoredMessage | null {
  for (let i = messages.length - 1; i >= 0; i--) {
    const m = messages[i]!
    if (m.role === 'user' && m.kind === 'message') return m
  }
  return null
}

/**
 * Virtuoso keeps the viewport still when items are prepended if `firstItemIndex` drops by
 * their number: find where the old first row went.
 */
function useFirstItemIndex(rows: readonly Row[]): number {
  const ref = useRef<{ key: string | null; index: number }>({ key: null, index: START })
  const first = rows[0]?.key ?? null
  if (first !== ref.current.key) {
    const at = ref.current.key === null ? -1 : rows.findIndex((r) => r.key === ref.current.key)
    ref.current = { key: first, index: at > 0 ? ref.current.index - at : ref.current.index }
  }
  return ref.current.index
}

interface ListContext {
  hasMore: boolean
  olderError: string | null
}

const LIST_PARTS = {
  Header: ({ context }: { context: ListContext }) =>
    context.hasMore ? (
      <p className="loading older" role="status">
        {context.olderError
          ? `Could not load older messages: ${context.olderError}`
          : 'Loading older messages…'}
      </p>
    ) : (
      <div className="list-top" />
    ),
  Footer: () => <div className="list-bottom" />,
}

/** `empty`: what a chat with no messages shows (the chat screen's start: onboarding or the intro) */
export function ConversationView(props: { empty: ReactNode }): JSX.Element {
  const { bridge, client, live: liveStore } = usePlatform()
  const sessionId = useLive((s) => s.currentId)
  const live = useLive((s) => s.sessions[s.currentId ?? NEW_CHAT] ?? emptyLive)
  const conversation = useConversation(sessionId)
  const messages = conversation.data?.messages ?? NO_MESSAGES
  const [picked, setPicked] = useState<Record<string, number>>({})
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set())
  /** a summary or pin action that failed, said in the conversation until dismissed */
  const [actionError, setActionError] = useState<string | null>(null)
  useEffect(() => setActionError(null), [sessionId])
  const turn = live.turn
  const busy = (turn?.running ?? false) || live.outbox !== null

  const stored = useMemo(
    () =>
      storedRows({
        messages,
        liveTurnId: turn?.turnId ?? null,
        hiding: live.outbox?.replaces ?? null,
        picked,
        busy,
        notices: live.notices,
        expandedSummaries: expanded,
      }),
    [messages, turn?.turnId, live.outbox?.replaces, picked, busy, live.notices, expanded],
  )
  const storedUser = useMemo(() => {
    const id = turn?.turnId ?? live.outbox?.turnId
    return id ? (messages.find((m) => m.turnId === id && m.role === 'user') ?? null) : null
  }, [messages, turn?.turnId, live.outbox?.turnId])
  const tail = useMemo(
    () =>
      liveRows({
        turn,
        outbox: live.outbox,
        ended: live.ended,
        storedUser,
        lastUser: lastUser(messages),
      }),
    [turn, live.outbox, live.ended, storedUser, messages],
  )
  const rows = useMemo(() => [...stored, ...tail], [stored, tail])
  const firstItemIndex = useFirstItemIndex(rows)

  const actions = useMemo<RowActions>(
    () => ({
      pick: (slot, index) => setPicked((p) => ({ ...p, [slot]: index })),
      resend: (messageId, text) => void liveStore.getState().send(text, { replaces: messageId }),
      send: (text) => void liveStore.getState().send(text),
      ...contextActions(bridge, client, sessionId, setExpanded, setActionError),
    }),
    [liveStore, bridge, client, sessionId],
  )

  const list = useRef<VirtuosoHandle>(null)
  const follow = useFollow(sessionId ?? NEW_CHAT)
  // a growing answer changes no item count: keep its end in view while following
  const { stick, follow: followAgain } = follow
  useLayoutEffect(() => stick(), [tail, stick])
  // a message of the user's own brings the end back into view
  // a search result: that message, scrolled to and highlighted
  const target = useTarget({
    sessionId,
    messages,
    hasMore: conversation.data?.hasMore ?? false,
    rows,
    list,
    unfollow: follow.unfollow,
    pick: actions.pick,
  })
  const sending = live.outbox !== null
  useEffect(() => {
    if (sending) followAgain()
  }, [sending, followAgain])

  // While the list positions itself (a few frames), parse the newest answers it will show.
  const prepared = useRef<string | null>(null)
  useEffect(() => {
    const data = conversation.data
    if (!sessionId || !data || prepared.current === sessionId) return
    prepared.current = sessionId
    const texts = data.messages
      .filter((m) => m.role === 'assistant' && m.content !== '')
      .slice(-PREPARE)
      .reverse()
      .map((m) => m.content)
    let timer = setTimeout(function step() {
      const text = texts.shift()
      if (text === undefined) return
      prepareMarkdown(text)
      timer = setTimeout(step, 0)
    }, 0)
    return () => clearTimeout(timer)
  }, [sessionId, conversation.data])

  const loadingOlder = useRef(false)
  const [olderError, setOlderError] = useState<string | null>(null)
  const loadOlder = useCallback(() => {
    if (!sessionId || loadingOlder.current || !conversation.data?.hasMore) return
    loadingOlder.current = true
    fetchOlder(bridge, client, sessionId)
      .then(() => setOlderError(null))
      .catch((e: unknown) => setOlderError(e instanceof Error ? e.message : String(e)))
      .finally(() => (loadingOlder.current = false))
  }, [bridge, client, sessionId, conversation.data?.hasMore])

  if (sessionId && conversation.isPending) {
    return (
      <section className="conversation" aria-label="Conversation" aria-busy="true">
        <p className="loading" role="status">
          Loading the conversation…
        </p>
      </section>
    )
  }
  if (sessionId && conversation.isError) {
    return (
      <section className="conversation" aria-label="Conversation">
        <div className="load-error" role="alert">
          <p>Could not load this conversation: {conversation.error.message}</p>
          <button type="button" onClick={() => void conversation.refetch()}>
            Try again
          </button>
        </div>
      </section>
    )
  }
  if (rows.length === 0) {
    return (
      <section className="conversation" aria-label="Conversation">
        {props.empty}
      </section>
    )
  }
  return (
    <RowActionsContext.Provider value={actions}>
      <section className="conversation" aria-label="Conversation">
        <Virtuoso
          key={sessionId ?? NEW_CHAT}
          ref={list}
          className="rows"
          data={rows}
          firstItemIndex={firstItemIndex}
          initialTopMostItemIndex={
            target.initialIndex !== null
              ? { index: target.initialIndex, align: 'start' }
              : { index: 'LAST', align: 'end' }
          }
          computeItemKey={(_, row) => row.key}
          itemContent={(_, row) =>
            row.key === target.shown?.rowKey ? (
              <div
                className={target.shown.callId ? 'row row-target-call' : 'row row-target'}
                aria-current={target.shown.callId ? undefined : 'true'}
              >
                <TargetCallContext.Provider value={target.shown.callId}>
                  <RowView row={row} />
                </TargetCallContext.Provider>
              </div>
            ) : (
              <div className="row">
                <RowView row={row} />
              </div>
            )
          }
          scrollerRef={follow.scrollerRef}
          followOutput={() => (follow.isFollowing() ? 'auto' : false)}
          totalListHeightChanged={follow.stick}
          atBottomStateChange={follow.onAtBottom}
          atBottomThreshold={64}
          startReached={loadOlder}
          increaseViewportBy={{ top: 300, bottom: 200 }}
          defaultItemHeight={160}
          context={{ hasMore: conversation.data?.hasMore ?? false, olderError }}
          components={LIST_PARTS}
        />
        {actionError ? (
          <div className="conversation-alert" role="alert">
            <span>{actionError}</span>
            <button type="button" className="action" onClick={() => setActionError(null)}>
              Dismiss
            </button>
          </div>
        ) : null}
        {follow.detached ? (
          <button
            type="button"
            className="jump"
            onClick={() => {
              follow.follow()
              list.current?.scrollToIndex({ index: 'LAST', align: 'end' })
            }}
          >
            Jump to latest
          </button>
        ) : null}
      </section>
    </RowActionsContext.Provider>
  )
}
