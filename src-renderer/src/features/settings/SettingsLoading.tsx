/** While the settings load, or why they could not. */
import type { UseQueryResult } from '@tanstack/react-query'
import type { JSX } from 'react'

export function SettingsLoading(props: { query: UseQueryResult<unknown> }): JSX.Element {
  if (props.query.isError)
    return (
      <p role="alert" className="error">
        Could not load the settings: {props.query.error.message}
      </p>
    )
  return <p className="meta">Loading…</p>
}
