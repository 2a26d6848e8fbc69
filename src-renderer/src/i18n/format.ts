/**
 * Numbers, dates and token counts in the window's language (Intl), so that 12,345 reads
 * 12.345 in German and a date reads 2026/11/28 in Japanese. `useFormat` re-renders with
 * the language.
 */
import type { TFunction } from 'i18next'
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
  /**
   * US dollars with the digits the engine uses (cents from a dollar up, more below, "<$0.0001"
   * for less), in the language's way of writing them: $0.0012, 0,0012 $, US$0.0012
   */
  usd(amount: number): string
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
    usd: (amount) => usd(locale, amount),
  }
}

function usd(locale: string, amount: number): string {
  const money = (n: number, digits: number): string =>
    new Intl.NumberFormat(locale, {
      style: 'currency',
      currency: 'USD',
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(n)
  if (amount === 0) return money(0, 2)
  if (amount < 0.0001) return `<${money(0.0001, 4)}`
  return money(amount, amount < 0.01 ? 4 : amount < 1 ? 3 : 2)
}

/** 850 ms → "0.9 s", 12 400 → "12 s", 95 000 → "1 min 35 s", in the language's words */
export function duration(t: TFunction, locale: string, ms: number): string {
  const nf = (n: number, digits = 0): string =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(n)
  if (ms < 10_000) return t('units.seconds', { n: nf(ms / 1000, 1) })
  const s = Math.round(ms / 1000)
  if (s < 60) return t('units.seconds', { n: nf(s) })
  return t('units.minutesSeconds', {
    minutes: t('units.minutes', { n: nf(Math.floor(s / 60)) }),
    seconds: t('units.seconds', { n: nf(s % 60) }),
  })
}

/** a duration in the window's language (re-renders with it) */
export function useDuration(): (ms: number) => string {
  const { t, i18n } = useTranslation()
  const locale = i18n.language === 'en-XA' || !i18n.language ? 'en' : i18n.language
  return (ms) => duration(t, locale, ms)
}

export function useFormat(): Formatters {
  const { i18n } = useTranslation()
  return formatters(i18n.language === 'en-XA' || !i18n.language ? 'en' : i18n.language)
}
