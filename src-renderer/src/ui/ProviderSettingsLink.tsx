/**
 * No dead ends: an error about the provider (its key, its model, its address, or none
 * configured) comes with a way to the provider settings.
 */
import type { JSX } from 'react'
import type { ErrorCode, ErrorInfo } from '../../../src-preload/contract/errors'
import { useT } from '../i18n'
import { useNav } from '../state/context'

/** the codes of the problems a provider setting fixes (its key, its model, its address, none) */
const PROVIDER_CODES: ReadonlySet<ErrorCode> = new Set<ErrorCode>([
  'no_provider',
  'no_model',
  'auth',
  'access_denied',
  'model_not_found',
  'endpoint_not_found',
  'network',
])

/** Whether the provider settings fix `error` (a refused send, or a turn's end). */
export function isProviderProblem(error: Pick<ErrorInfo, 'code'>): boolean {
  return PROVIDER_CODES.has(error.code)
}

export function ProviderSettingsLink(): JSX.Element {
  const showSettings = useNav((s) => s.showSettings)
  const t = useT()
  return (
    <button
      type="button"
      className="action settings-link"
      onClick={() => showSettings('providers')}
    >
      {t('common.providerSettings')}
    </button>
  )
}
