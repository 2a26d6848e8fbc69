import type { JSX } from 'react'
import { useChat } from '../state'

export function ConnectionBanner(): JSX.Element | null {
  const status = useChat((s) => s.connection)
  if (status !== 'reconnecting') return null
  return (
    <div className="banner" role="alert">
      Connection lost — reconnecting…
    </div>
  )
}
