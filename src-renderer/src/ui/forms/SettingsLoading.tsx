/** While the settings (or `what` else a section shows, in the window's language) load, or why they could not. */
import type { UseQueryResult } from '@tanstack/react-query'
import type { JSX } from 'react'
import { useT } from '../../i18n'

export function SettingsLoading(props: {
  query: UseQueryResult<unknown>
  what?: string
}): JSX.Element {
  const t = useT()
  if (props.query.isError)
    return (
      <p role="alert" className="error">
        {props.what
          ? t('common.couldNotLoad', { what: props.what, error: props.query.error.message })
          : t('common.couldNotLoadSettings', { error: props.query.error.message })}
      </p>
    )
  return <p className="meta">{t('common.loading')}</p>
}
