import type { JSX } from 'react'
import { useLive } from '../state/context'

export function ConnectionBanner(): JSX.Element | null {
  const status = useLive((s) => s.connection)
  if (status !== 'reconnecting') return null
  return (
    <div className="banner" role="alert">
      Connection lost — reconnecting…
    </div>
  )
}
