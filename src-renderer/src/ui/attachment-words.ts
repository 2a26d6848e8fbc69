/**
 * How the window names an attached file's size and kind (the engine's words for the model
 * and the CLI are core/attachments/describe.ts, which the window cannot import), in the
 * window's language when given its `t` and locale.
 */
import type { TFunction } from '../i18n'

const KINDS: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'Word',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PowerPoint',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'Excel',
  'text/plain': 'Text',
}

/** "PDF", "Word", "Text"; "ODT" and such from the media type's last word */
export function kindLabel(mediaType: string, t?: TFunction): string {
  if (KINDS[mediaType]) return mediaType === 'text/plain' && t ? t('files.kind.text') : KINDS[mediaType]
  if (mediaType.startsWith('image/')) return t ? t('files.kind.image') : 'Image'
  if (mediaType.includes('opendocument')) return 'OpenDocument'
  return t ? t('files.kind.file') : 'File'
}

/** 1 234 567 → "1.2 MB" (1,2 MB in German) */
export function sizeLabel(bytes: number, locale = 'en'): string {
  const n = (x: number, digits = 0): string =>
    new Intl.NumberFormat(locale, {
      minimumFractionDigits: digits,
      maximumFractionDigits: digits,
    }).format(x)
  if (bytes < 1024) return `${n(bytes)} B`
  if (bytes < 1024 * 1024) return `${n(Math.round(bytes / 1024))} KB`
  const mb = bytes / (1024 * 1024)
  return `${mb < 10 ? n(mb, 1) : n(Math.round(mb))} MB`
}

/** 40312 → "40 312" (English), "40.312" (German) */
export function countLabel(n: number, locale = 'en'): string {
  if (locale === 'en') return n.toLocaleString('en-US').replace(/,/g, ' ')
  return new Intl.NumberFormat(locale).format(n)
}
