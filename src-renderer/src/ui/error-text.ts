/**
 * What the window says about a failure, decided from its code and details (the closed
 * ErrorCode union of src-preload/contract/errors.ts), never from the words of its message.
 * In English the host's own message is shown: it is written for the person and names the
 * thing at hand. In every other language the code's text (`errors.<code>` in the locale),
 * with the details put in, stands for it.
 */
import { useCallback } from 'react'
import type { ErrorInfo } from '../../../src-preload/contract/errors'
import { useLanguage, useT, type TFunction } from '../i18n'
import { errorInfoOf } from '../platform/request'

/** the values a code's text may use: {{path}}, {{id}}, {{file}}, {{model}}, {{status}}, {{fields}} … */
function values(info: ErrorInfo): Record<string, string | number> {
  const d = (info.details ?? {}) as Record<string, unknown>
  const out: Record<string, string | number> = {}
  for (const [k, v] of Object.entries(d)) {
    if (typeof v === 'string' || typeof v === 'number') out[k] = v
    else if (Array.isArray(v)) out[k] = v.join(', ')
  }
  // a provider's failure without a status, a file of no known type: said as unknown
  out.status ??= '–'
  out.detectedType ??= '?'
  if (info.code === 'bad_request' || info.code === 'conflict') {
    out.fields = Object.keys(info.details?.fields ?? {}).join(', ')
  }
  return out
}

/** an ErrorInfo as it came over the boundary (a turn's end carries one) */
function isErrorInfo(e: unknown): e is ErrorInfo {
  return (
    typeof e === 'object' &&
    e !== null &&
    !(e instanceof Error) &&
    typeof (e as { code?: unknown }).code === 'string' &&
    typeof (e as { message?: unknown }).message === 'string'
  )
}

/** the text of a failure in the language `t` speaks (`language`: its tag) */
export function errorText(t: TFunction, language: string, e: unknown): string {
  const info = isErrorInfo(e) ? e : errorInfoOf(e)
  if (language === 'en' && info.message) return info.message
  const v = values(info)
  if (info.code === 'internal' && !info.details?.id) return t('errors.internalNoId')
  if (info.code === 'attachment_refused' && info.details) {
    const problem = info.details.problem.replace(/_(\w)/g, (_, c: string) => c.toUpperCase())
    return t(`errors.attachment.${problem as 'tooLarge'}`, v)
  }
  if ((info.code === 'bad_request' || info.code === 'conflict') && !v.fields) {
    return t(`errors.${info.code}`, v)
  }
  if (info.code === 'bad_request' || info.code === 'conflict') {
    return t(`errors.${info.code}Fields`, v)
  }
  return t(`errors.${info.code}`, v)
}

/** `errorText` in the window's language (re-renders with it; the same function until it changes) */
export function useErrorText(): (e: unknown) => string {
  const t = useT()
  const language = useLanguage()
  return useCallback((e: unknown) => errorText(t, language, e), [t, language])
}
