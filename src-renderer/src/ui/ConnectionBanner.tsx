import type { JSX } from 'react'
import { useT } from '../i18n'
import { useLive } from '../state/context'

export function ConnectionBanner(): JSX.Element | null {
  const status = useLive((s) => s.connection)
  const t = useT()
  if (status === 'unauthorized') {
    return (
      <div className="banner" role="alert">
        {t('common.unauthorized')}
      </div>
    )
  }
  if (status !== 'reconnecting') return null
  return (
    <div className="banner" role="alert">
      {t('common.reconnecting')}
    </div>
  )
}
