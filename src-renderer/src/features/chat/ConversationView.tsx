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
import { useT } from '../../i18n'
import { useErrorText } from '../../ui/error-text'
import { usePlatform, useLive } from '../../state/context'
import type { Row } from '../../state/conversation'
import { NEW_CHAT } from '../../state/live-store'
import {
  fetchOlder,
  forkChat,
  openBranch,
  useConversation,
  type Conversation,
} from '../../state/queries'
import { contextActions } from './context-actions'
import { RowActionsContext, type RowActions } from './rows/actions'
import { AnswerRow } from './rows/AnswerRow'
import { EndRow, NoticeRow, SummaryRow } from './rows/NoticeRows'
import { UserRow } from './rows/UserRow'
import {
  useConversationRows,
  useFirstItemIndex,
  type ConversationRows,
} from './use-conversation-rows'
import { useFollow } from './use-follow'
import { TargetCallContext, useTarget, type Shown } from './use-target'

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

/** a row, highlighted when a search result points at it (or at a tool call in it) */
function RowFrame(props: { row: Row; target: Shown | null }): JSX.Element {
  const { row, target } = props
  if (row.key !== target?.rowKey) {
    return (
      <div className="row">
        <RowView row={row} />
      </div>
    )
  }
  return (
    <div
      className={target.callId ? 'row row-target-call' : 'row row-target'}
      aria-current={target.callId ? undefined : 'true'}
    >
      <TargetCallContext.Provider value={target.callId}>
        <RowView row={row} />
      </TargetCallContext.Provider>
    </div>
  )
}

interface ListContext {
  hasMore: boolean
  olderError: unknown
}

function OlderHeader(props: { context: ListContext }): JSX.Element {
  const t = useT()
  const errorText = useErrorText()
  const { context } = props
  return context.hasMore ? (
    <p className="loading older" role="status">
      {context.olderError !== null
        ? t('chat.olderFailed', { error: errorText(context.olderError) })
        : t('chat.loadingOlder')}
    </p>
  ) : (
    <div className="list-top" />
  )
}

const LIST_PARTS = {
  Header: ({ context }: { context: ListContext }) => <OlderHeader context={context} />,
  Footer: () => <div className="list-bottom" />,
}

/** Loads the page before the oldest loaded message when the top is reached. */
function useOlderPages(sessionId: string | null, data: Conversation | undefined) {
  const { bridge, client } = usePlatform()
  const loading = useRef(false)
  const [error, setError] = useState<unknown>(null)
  const hasMore = data?.hasMore ?? false
  const loadOlder = useCallback(() => {
    if (!sessionId || loading.current || !hasMore) return
    loading.current = true
    fetchOlder(bridge, client, sessionId)
      .then(() => setError(null))
      .catch((e: unknown) => setError(e))
      .finally(() => (loading.current = false))
  }, [bridge, client, sessionId, hasMore])
  return { loadOlder, olderError: error, hasMore }
}

function ConversationList(props: {
  sessionId: string | null
  data: Conversation | undefined
  view: ConversationRows
  /** shown over the list, before "Jump to latest" */
  children?: ReactNode
}): JSX.Element {
  const { sessionId, view } = props
  const { rows } = view
  const firstItemIndex = useFirstItemIndex(rows)
  const list = useRef<VirtuosoHandle>(null)
  const follow = useFollow(sessionId ?? NEW_CHAT)
  // rows added or changed: keep the end in view while following (a growing answer is kept
  // there by the list's height changing)
  const { stick, follow: followAgain } = follow
  useLayoutEffect(() => stick(), [rows, stick])
  // a message of the user's own brings the end back into view
  useEffect(() => {
    if (view.sending) followAgain()
  }, [view.sending, followAgain])
  // a search result: that message, scrolled to and highlighted
  const target = useTarget({
    sessionId,
    messages: view.messages,
    hasMore: props.data?.hasMore ?? false,
    rows,
    list,
    unfollow: follow.unfollow,
  })
  const older = useOlderPages(sessionId, props.data)
  const t = useT()
  const shown = target.shown
  return (
    <>
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
        itemContent={(_, row) => <RowFrame row={row} target={shown} />}
        scrollerRef={follow.scrollerRef}
        followOutput={() => (follow.isFollowing() ? 'auto' : false)}
        totalListHeightChanged={follow.stick}
        atBottomStateChange={follow.onAtBottom}
        atBottomThreshold={64}
        startReached={older.loadOlder}
        increaseViewportBy={{ top: 300, bottom: 200 }}
        defaultItemHeight={160}
        context={{ hasMore: older.hasMore, olderError: older.olderError }}
        components={LIST_PARTS}
      />
      {props.children}
      {follow.detached ? (
        <button
          type="button"
          className="jump"
          onClick={() => {
            follow.follow()
            list.current?.scrollToIndex({ index: 'LAST', align: 'end' })
          }}
        >
          {t('chat.jumpToLatest')}
        </button>
      ) : null}
    </>
  )
}

/** an action of the conversation that failed, and why */
export type ActionFailure = { what: 'undo' | 'pin' | 'unpin' | 'openBranch' | 'fork'; error: unknown }

function ActionError(props: { failure: ActionFailure; dismiss: () => void }): JSX.Element {
  const t = useT()
  const errorText = useErrorText()
  const { what, error } = props.failure
  return (
    <div className="conversation-alert" role="alert">
      <span>{t(`chat.couldNot.${what}`, { error: errorText(error) })}</span>
      <button type="button" className="action" onClick={props.dismiss}>
        {t('chat.dismiss')}
      </button>
    </div>
  )
}

/** `empty`: what a chat with no messages shows (the chat screen's start: onboarding or the intro) */
export function ConversationView(props: { empty: ReactNode }): JSX.Element {
  const { bridge, client, live: liveStore } = usePlatform()
  const sessionId = useLive((s) => s.currentId)
  const conversation = useConversation(sessionId)
  const view = useConversationRows(sessionId, conversation.data)
  const t = useT()
  const errorText = useErrorText()
  /** a summary or pin action that failed, said in the conversation until dismissed */
  const [actionError, setActionError] = useState<ActionFailure | null>(null)
  useEffect(() => setActionError(null), [sessionId])
  const { setExpanded } = view
  const actions = useMemo<RowActions>(
    () => ({
      pick: (seq) => {
        if (!sessionId) return
        void openBranch(bridge, client, sessionId, { seq }).then((why) =>
          setActionError(why ? { what: 'openBranch', error: why } : null),
        )
      },
      resend: (messageId, text) => void liveStore.getState().send(text, { replaces: messageId }),
      regenerate: (messageId) => void liveStore.getState().regenerate(messageId),
      fork: (messageId) => {
        if (!sessionId) return
        void forkChat(bridge, client, sessionId, messageId).then((r) =>
          'id' in r
            ? liveStore.getState().open(r.id)
            : setActionError({ what: 'fork', error: r.error }),
        )
      },
      send: (text) => void liveStore.getState().send(text),
      ...contextActions(bridge, client, sessionId, setExpanded, setActionError),
    }),
    [liveStore, bridge, client, sessionId, setExpanded],
  )

  if (sessionId && conversation.isPending) {
    return (
      <section className="conversation" aria-label={t('chat.conversation')} aria-busy="true">
        <p className="loading" role="status">
          {t('chat.loadingConversation')}
        </p>
      </section>
    )
  }
  if (sessionId && conversation.isError) {
    return (
      <section className="conversation" aria-label={t('chat.conversation')}>
        <div className="load-error" role="alert">
          <p>{t('chat.loadFailed', { error: errorText(conversation.error) })}</p>
          <button type="button" onClick={() => void conversation.refetch()}>
            {t('common.tryAgain')}
          </button>
        </div>
      </section>
    )
  }
  if (view.rows.length === 0) {
    return (
      <section className="conversation" aria-label={t('chat.conversation')}>
        {props.empty}
      </section>
    )
  }
  return (
    <RowActionsContext.Provider value={actions}>
      <section className="conversation" aria-label={t('chat.conversation')}>
        <ConversationList sessionId={sessionId} data={conversation.data} view={view}>
          {actionError ? (
            <ActionError failure={actionError} dismiss={() => setActionError(null)} />
          ) : null}
        </ConversationList>
      </section>
    </RowActionsContext.Provider>
  )
}
