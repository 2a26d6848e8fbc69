/** A form's save state: "Saving…" / "Saved" in a status line, the host's error beside it. */
import type { JSX, ReactNode } from 'react'
import { useT } from '../../i18n'
import type { SaveState } from './use-save-settings'

export function SaveStatus(props: { saver: SaveState; savedText?: string }): JSX.Element {
  const { state, error } = props.saver
  const t = useT()
  return (
    <span className="save-status">
      <span role="status" className="meta">
        {state === 'saving'
          ? t('common.saving')
          : state === 'saved'
            ? (props.savedText ?? t('common.saved'))
            : ''}
      </span>
      {state === 'error' && error ? (
        <span role="alert" className="error">
          {t('common.notSaved', { error })}
        </span>
      ) : null}
    </span>
  )
}

/** A form's buttons: its submit button (off while saving), the others it has, its save state. */
export function SaveActions(props: {
  label: string
  saver: SaveState
  children?: ReactNode
}): JSX.Element {
  return (
    <div className="form-actions">
      <button type="submit" className="primary" disabled={props.saver.state === 'saving'}>
        {props.label}
      </button>
      {props.children}
      <SaveStatus saver={props.saver} />
    </div>
  )
}
