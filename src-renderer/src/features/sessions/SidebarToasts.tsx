/**
 * The sidebar's toasts: "Chat deleted" with Undo, where an export was saved, and what went
 * wrong (a deletion, a pin, an export), each with Dismiss.
 */
import type { JSX } from 'react'
import type { PendingDeletes } from './use-pending-delete'

export function SidebarToasts(props: {
  deletes: PendingDeletes
  exported: string | null
  dismissExported(): void
  notice: string | null
  dismissNotice(): void
}): JSX.Element {
  const { deletes, exported, notice } = props
  return (
    <div className="toasts">
      <div role="status">
        {deletes.pending ? (
          <div className="toast">
            <span>Chat deleted</span>
            <button type="button" className="action" onClick={deletes.undo}>
              Undo
            </button>
          </div>
        ) : null}
        {exported ? (
          <div className="toast">
            <span className="toast-path">Exported to {exported}</span>
            <button type="button" className="action" onClick={props.dismissExported}>
              Dismiss
            </button>
          </div>
        ) : null}
      </div>
      {deletes.error || notice ? (
        <div className="toast toast-error" role="alert">
          <span>{deletes.error ?? notice}</span>
          <button
            type="button"
            className="action"
            onClick={() => {
              deletes.dismissError()
              props.dismissNotice()
            }}
          >
            Dismiss
          </button>
        </div>
      ) : null}
    </div>
  )
}
