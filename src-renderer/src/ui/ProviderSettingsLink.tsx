/**
 * No dead ends: an error about the provider (its key, its model, its address, or none
 * configured) comes with a way to the provider settings.
 */
import type { JSX } from 'react'
import { useNav } from '../state/context'

/** the turn errors' codes that a provider setting fixes */
const PROVIDER_CODES = new Set([
  'auth',
  'forbidden',
  'model_not_found',
  'not_found',
  'network',
  'no_provider',
  'no_model',
  'provider',
])

/** words of the errors that name a provider setting (send errors carry only a message) */
const PROVIDER_WORDS = [
  'provider',
  'api key',
  'base url',
  'no model is configured',
  'was not found on',
  'could not connect to',
  'could not reach',
  'could not resolve the host',
]

export function isProviderProblem(error: { code?: string | null; message: string }): boolean {
  if (error.code && PROVIDER_CODES.has(error.code)) return true
  const text = error.message.toLowerCase()
  return PROVIDER_WORDS.some((w) => text.includes(w))
}

export function ProviderSettingsLink(): JSX.Element {
  const showSettings = useNav((s) => s.showSettings)
  return (
    <button
      type="button"
      className="action settings-link"
      onClick={() => showSettings('providers')}
    >
      Open provider settings
    </button>
  )
}
