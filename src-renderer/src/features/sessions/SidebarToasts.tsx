/**
 * The sidebar's toasts: "Chat deleted" with Undo, where an export was saved, and what went
 * wrong (a deletion, a pin, an export), each with Dismiss.
 */
import type { JSX } from 'react'
import { useT } from '../../i18n'
import type { PendingDeletes } from './use-pending-delete'

export function SidebarToasts(props: {
  deletes: PendingDeletes
  exported: string | null
  dismissExported(): void
  notice: string | null
  dismissNotice(): void
}): JSX.Element {
  const { deletes, exported, notice } = props
  const t = useT()
  return (
    <div className="toasts">
      <div role="status">
        {deletes.pending ? (
          <div className="toast">
            <span>{t('sidebar.deleted')}</span>
            <button type="button" className="action" onClick={deletes.undo}>
              {t('sidebar.undo')}
            </button>
          </div>
        ) : null}
        {exported ? (
          <div className="toast">
            <span className="toast-path">{t('sidebar.exportedTo', { path: exported })}</span>
            <button type="button" className="action" onClick={props.dismissExported}>
              {t('chat.dismiss')}
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
            {t('chat.dismiss')}
          </button>
        </div>
      ) : null}
    </div>
  )
}
