/** While the settings (or `what` else a section shows) load, or why they could not. */
import type { UseQueryResult } from '@tanstack/react-query'
import type { JSX } from 'react'

export function SettingsLoading(props: {
  query: UseQueryResult<unknown>
  what?: string
}): JSX.Element {
  if (props.query.isError)
    return (
      <p role="alert" className="error">
        Could not load {props.what ?? 'the settings'}: {props.query.error.message}
      </p>
    )
  return <p className="meta">Loading…</p>
}
