import type { JSX } from 'react'
import { UNAUTHORIZED_MESSAGE } from '../platform/ws-transport'
import { useLive } from '../state/context'

export function ConnectionBanner(): JSX.Element | null {
  const status = useLive((s) => s.connection)
  if (status === 'unauthorized') {
    return (
      <div className="banner" role="alert">
        {UNAUTHORIZED_MESSAGE}
      </div>
    )
  }
  if (status !== 'reconnecting') return null
  return (
    <div className="banner" role="alert">
      Connection lost — reconnecting…
    </div>
  )
}
