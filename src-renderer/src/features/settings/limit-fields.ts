/**
 * The turn limits the settings screen edits, with the bounds the contract enforces
 * (`limitsPatch` in the routes). Durations are shown in seconds and stored in ms. Each
 * field's label and hint are `general.limits.fields.<key>` in the locales.
 */
import type { LimitsView } from '../../../../src-preload/contract/app-dto'
import { i18n } from '../../i18n'

export type NumberLimit = Exclude<
  keyof LimitsView,
  'stopOnToolFailure' | 'stopOnDenied' | 'neverCompressTools'
>

export interface LimitField {
  key: NumberLimit
  /** the stored value is this many times the shown one (ms shown as seconds: 1000) */
  scale: number
  min: number
  max?: number
}

export const LIMIT_FIELDS: readonly LimitField[] = [
  { key: 'maxIterations', scale: 1, min: 1 },
  {
    key: 'maxToolExecutions',
    scale: 1,
    min: 0,
  },
  {
    key: 'deadlineMs',
    scale: 1000,
    min: 1,
  },
  {
    key: 'maxToolOutputChars',
    scale: 1,
    min: 100,
  },
  {
    key: 'maxAnswerChars',
    scale: 1,
    min: 1_000,
  },
  {
    key: 'maxToolsPerServer',
    scale: 1,
    min: 1,
    max: 10_000,
  },
  {
    key: 'maxToolsOffered',
    scale: 1,
    min: 2,
    max: 1000,
  },
  {
    key: 'maxRetries',
    scale: 1,
    min: 0,
    max: 20,
  },
  {
    key: 'idleTimeoutMs',
    scale: 1000,
    min: 1,
  },
  {
    key: 'loopThreshold',
    scale: 1,
    min: 2,
  },
  {
    key: 'loopMaxWarnings',
    scale: 1,
    min: 0,
  },
  {
    key: 'contextTokens',
    scale: 1,
    min: 0,
  },
  {
    key: 'compactAtPercent',
    scale: 1,
    min: 10,
    max: 95,
  },
  {
    key: 'keepToolResultsTurns',
    scale: 1,
    min: 1,
    max: 1000,
  },
]

/** The text a field shows for a stored value. */
export const shown = (f: LimitField, stored: number): string => String(stored / f.scale)

/** The stored value of what was typed, or what is wrong with it. */
export function parseLimit(
  f: LimitField,
  text: string,
): { value: number; error: null } | { value: null; error: string } {
  const t = text.trim()
  if (!t) return { value: null, error: i18n.t('common.enterNumber') }
  const n = Number(t)
  if (!Number.isFinite(n)) return { value: null, error: i18n.t('common.enterNumber') }
  const value = Math.round(n * f.scale)
  if (f.scale === 1 && !Number.isInteger(n))
    return { value: null, error: i18n.t('common.enterWholeNumber') }
  if (f.scale !== 1 && Math.abs(value - n * f.scale) > 1e-6)
    return { value: null, error: i18n.t('common.atMostThreeDecimals') }
  if (n < f.min) return { value: null, error: i18n.t('common.atLeast', { min: f.min }) }
  if (f.max !== undefined && n > f.max)
    return { value: null, error: i18n.t('common.atMost', { max: f.max }) }
  if (!Number.isSafeInteger(value)) return { value: null, error: i18n.t('common.tooLarge') }
  return { value, error: null }
}
