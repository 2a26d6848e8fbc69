import type { JSX } from 'react'
import { useT } from '../../../i18n'
import { useRowActions } from './actions'

/** "Keep in context": a pinned message is never summarized or left out of the request. */
export function PinButton(props: { messageId: string; pinned: boolean }): JSX.Element {
  const { pin } = useRowActions()
  const t = useT()
  return (
    <button
      type="button"
      className="action"
      aria-pressed={props.pinned}
      title={t('chat.pin.about')}
      onClick={() => pin?.(props.messageId, !props.pinned)}
    >
      {props.pinned ? t('chat.pin.kept') : t('chat.pin.keep')}
    </button>
  )
}
