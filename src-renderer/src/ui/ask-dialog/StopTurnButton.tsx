/**
 * "Stop answer" inside a dialog that waits for the user (an approval, a server's question).
 * The window behind a dialog is inert, so its Stop button cannot be reached; this one stops
 * the turn the request belongs to. The engine then answers the waiting request and every
 * open tool call, exactly as the composer's Stop does.
 */
import { useState, type JSX } from 'react'
import { useT } from '../../i18n'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import './stop-turn.css'

export function StopTurnButton(props: {
  turnId: string
  /** the dialog's deliberate-act check: a key press that began elsewhere stops nothing */
  deliberate: (target: EventTarget, detail: number) => boolean
}): JSX.Element {
  const { bridge } = usePlatform()
  const [stopping, setStopping] = useState(false)
  const t = useT()
  return (
    <button
      type="button"
      className="dialog-stop"
      disabled={stopping}
      onClick={(e) => {
        if (!props.deliberate(e.currentTarget, e.detail)) return
        setStopping(true)
        call(bridge, 'chat.stop', { turnId: props.turnId }).catch(() => setStopping(false))
      }}
    >
      {stopping ? t('approval.stopping') : t('approval.stop')}
    </button>
  )
}
