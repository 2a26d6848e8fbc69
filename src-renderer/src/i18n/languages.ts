/**
 * The languages the window ships, each named in itself (the Language choice shows them so,
 * whatever the window's language), and how a system language maps to one of them.
 */
export const LANGUAGES = ['en', 'zh-CN', 'ja', 'de', 'es', 'fr', 'pt-BR'] as const
export type Language = (typeof LANGUAGES)[number]

/** The pseudo-locale: English made longer and accented, to find text that does not fit. */
export const PSEUDO = 'en-XA'
export type UiLanguage = Language | typeof PSEUDO

export const AUTONYMS: Record<Language, string> = {
  en: 'English',
  'zh-CN': '简体中文',
  ja: '日本語',
  de: 'Deutsch',
  es: 'Español',
  fr: 'Français',
  'pt-BR': 'Português (Brasil)',
}

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value)
}

/**
 * The shipped language closest to a BCP 47 tag: the exact one, else the same language in
 * another region (any Chinese is Simplified Chinese, any Portuguese Brazilian), else none.
 */
export function matchLanguage(tag: string): Language | null {
  const lower = tag.toLowerCase()
  const exact = LANGUAGES.find((l) => l.toLowerCase() === lower)
  if (exact) return exact
  const base = lower.split(/[-_]/)[0] ?? ''
  return LANGUAGES.find((l) => l.toLowerCase().split('-')[0] === base) ?? null
}

/** The first of the system's languages that Cairn ships, else English. */
export function systemLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const found = matchLanguage(tag)
    if (found) return found
  }
  return 'en'
}
