/**
 * The chats, pinned first, then by last activity: a virtualized list (only the rows near
 * the viewport are in the page) that loads the next page as the end comes into view, so
 * thousands of chats cost what a screenful does.
 */
import { forwardRef, type JSX } from 'react'
import { Virtuoso, type Components } from 'react-virtuoso'
import type { SessionRecord } from '../../../../src-preload/contract/dto'
import { SessionRow, type RowCallbacks } from './SessionRow'

interface ListContext {
  loadingMore: boolean
}

const PARTS: Components<SessionRecord, ListContext> = {
  List: forwardRef<HTMLDivElement, { style?: React.CSSProperties; children?: React.ReactNode }>(
    function List(props, ref) {
      return <div {...props} ref={ref} role="list" aria-label="Chats" className="session-list" />
    },
  ),
  Item: ({ children, context: _context, item: _item, ...rest }) => (
    <div {...rest} role="listitem">
      {children}
    </div>
  ),
  Footer: ({ context }) =>
    context?.loadingMore ? (
      <p className="meta sidebar-note" role="status">
        Loading more chats…
      </p>
    ) : null,
}

export function SessionList(props: {
  sessions: SessionRecord[]
  currentId: string | null
  running: Readonly<Record<string, string>>
  callbacks: RowCallbacks
  hasMore: boolean
  loadingMore: boolean
  loadMore(): void
}): JSX.Element {
  return (
    <Virtuoso
      className="session-scroller"
      data={props.sessions}
      computeItemKey={(_, s) => s.id}
      itemContent={(_, s) => (
        <SessionRow
          session={s}
          current={s.id === props.currentId}
          running={props.running[s.id] !== undefined}
          callbacks={props.callbacks}
        />
      )}
      endReached={() => {
        if (props.hasMore) props.loadMore()
      }}
      increaseViewportBy={{ top: 200, bottom: 400 }}
      defaultItemHeight={36}
      context={{ loadingMore: props.loadingMore }}
      components={PARTS}
    />
  )
}
