import type { Formatters } from '../../i18n/format'

/** a day of the report (YYYY-MM-DD, the engine's key) as the window's language writes a date */
export function dayLabel(key: string, format: Formatters): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(key)
  if (!m) return key
  return format.date(new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3])))
}
