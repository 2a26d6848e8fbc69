/**
 * Numbers, dates and token counts in the window's language (Intl), so that 12,345 reads
 * 12.345 in German and a date reads 2026/11/28 in Japanese. `useFormat` re-renders with
 * the language.
 */
import { useTranslation } from 'react-i18next'
import { intlLocale } from './index'

export interface Formatters {
  /** a plain number: 12,345 */
  number(n: number, options?: Intl.NumberFormatOptions): string
  /** a token count, short past ten thousand: 1,234 · 12.3K · 1.2M (in the language's words) */
  tokens(n: number): string
  /** a percentage of 0–100 */
  percent(n: number): string
  /** a date and time */
  dateTime(at: number | Date, options?: Intl.DateTimeFormatOptions): string
  /** a date without the time */
  date(at: number | Date, options?: Intl.DateTimeFormatOptions): string
  /** a time of day */
  time(at: number | Date): string
  /** a list: a, b and c */
  list(items: string[]): string
}

export function formatters(locale: string = intlLocale()): Formatters {
  return {
    number: (n, options) => new Intl.NumberFormat(locale, options).format(n),
    tokens: (n) =>
      new Intl.NumberFormat(
        locale,
        Math.abs(n) >= 10_000 ? { notation: 'compact', maximumFractionDigits: 1 } : {},
      ).format(n),
    percent: (n) =>
      new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 }).format(n / 100),
    dateTime: (at, options) =>
      new Intl.DateTimeFormat(
        locale,
        options ?? { dateStyle: 'medium', timeStyle: 'short' },
      ).format(at),
    date: (at, options) =>
      new Intl.DateTimeFormat(locale, options ?? { dateStyle: 'medium' }).format(at),
    time: (at) => new Intl.DateTimeFormat(locale, { timeStyle: 'short' }).format(at),
    list: (items) => new Intl.ListFormat(locale, { type: 'conjunction' }).format(items),
  }
}

export function useFormat(): Formatters {
  const { i18n } = useTranslation()
  return formatters(i18n.language === 'en-XA' || !i18n.language ? 'en' : i18n.language)
}
