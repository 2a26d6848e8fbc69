/** A message the user sent: its text, Copy, and for the newest one "Edit and resend". */
import { memo, useState, type JSX } from 'react'
import type { Row } from '../../../state/conversation'
import { useT } from '../../../i18n'
import { CopyButton } from '../../../ui/CopyButton'
import { useRowActions } from './actions'
import { PinButton } from './PinButton'
import { ForkButton, VersionSwitch } from './VersionSwitch'
import { AttachedResources } from './AttachedResources'
import { AttachedFiles } from './AttachedFiles'

type UserRowData = Extract<Row, { kind: 'user' }>

function Editor(props: { text: string; onDone: () => void; messageId: string }): JSX.Element {
  const [text, setText] = useState(props.text)
  const { resend } = useRowActions()
  const t = useT()
  const submit = (): void => {
    if (!text.trim()) return
    resend(props.messageId, text)
    props.onDone()
  }
  return (
    <form
      className="edit"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <textarea
        aria-label={t('chat.editMessage')}
        value={text}
        autoFocus
        rows={Math.min(10, text.split('\n').length + 1)}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault()
            e.stopPropagation()
            props.onDone()
          } else if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
            e.preventDefault()
            submit()
          }
        }}
      />
      <div className="edit-actions">
        <button type="button" onClick={props.onDone}>
          {t('common.cancel')}
        </button>
        <button type="submit" className="primary" disabled={!text.trim()}>
          {t('chat.resend')}
        </button>
      </div>
    </form>
  )
}

export const UserRow = memo(function UserRow(props: { row: UserRowData }): JSX.Element {
  const { row } = props
  const [editing, setEditing] = useState(false)
  const t = useT()
  return (
    <article className={`msg user${row.pending ? ' pending' : ''}`} aria-label={t('chat.you')}>
      {editing && row.messageId ? (
        <Editor text={row.text} messageId={row.messageId} onDone={() => setEditing(false)} />
      ) : (
        <div className="bubble">
          {row.attached ? (
            <AttachedResources attached={row.attached} cut={row.attachedCut ?? []} />
          ) : null}
          {row.files ? <AttachedFiles files={row.files} /> : null}
          <div className="text">{row.text}</div>
        </div>
      )}
      {!editing ? (
        <div className="msg-actions">
          {row.pending ? <span className="meta">{t('chat.sending')}</span> : null}
          {row.versions ? <VersionSwitch versions={row.versions} /> : null}
          <CopyButton text={row.text} label={t('chat.copyMessage')} />
          {row.messageId && !row.pending ? (
            <PinButton messageId={row.messageId} pinned={row.pinned ?? false} />
          ) : null}
          {row.canEdit && row.messageId ? <ForkButton messageId={row.messageId} /> : null}
          {row.canEdit && row.messageId ? (
            <button
              type="button"
              className="action"
              aria-label={t('chat.editAndResend')}
              onClick={() => setEditing(true)}
            >
              {t('chat.edit')}
            </button>
          ) : null}
        </div>
      ) : null}
    </article>
  )
})
