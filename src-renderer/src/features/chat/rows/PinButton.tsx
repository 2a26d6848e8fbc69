import type { JSX } from 'react'
import { useRowActions } from './actions'

/** "Keep in context": a pinned message is never summarized or left out of the request. */
export function PinButton(props: { messageId: string; pinned: boolean }): JSX.Element {
  const { pin } = useRowActions()
  return (
    <button
      type="button"
      className="action"
      aria-pressed={props.pinned}
      title="A message kept in context is never summarized or left out"
      onClick={() => pin?.(props.messageId, !props.pinned)}
    >
      {props.pinned ? 'Kept in context' : 'Keep in context'}
    </button>
  )
}
