/** A message the user sent: its text, Copy, and for the newest one "Edit and resend". */
import { memo, useState, type JSX } from 'react'
import type { Row } from '../../../state/conversation'
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
        aria-label="Edit message"
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
          Cancel
        </button>
        <button type="submit" className="primary" disabled={!text.trim()}>
          Resend
        </button>
      </div>
    </form>
  )
}

export const UserRow = memo(function UserRow(props: { row: UserRowData }): JSX.Element {
  const { row } = props
  const [editing, setEditing] = useState(false)
  return (
    <article className={`msg user${row.pending ? ' pending' : ''}`} aria-label="You">
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
          {row.pending ? <span className="meta">Sending…</span> : null}
          {row.versions ? <VersionSwitch versions={row.versions} /> : null}
          <CopyButton text={row.text} label="Copy message" />
          {row.messageId && !row.pending ? (
            <PinButton messageId={row.messageId} pinned={row.pinned ?? false} />
          ) : null}
          {row.canEdit && row.messageId ? <ForkButton messageId={row.messageId} /> : null}
          {row.canEdit && row.messageId ? (
            <button
              type="button"
              className="action"
              aria-label="Edit and resend"
              onClick={() => setEditing(true)}
            >
              Edit
            </button>
          ) : null}
        </div>
      ) : null}
    </article>
  )
})
