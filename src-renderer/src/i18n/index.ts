/**
 * The window's translation layer: one i18next instance, English bundled and the other
 * languages loaded when chosen. The language follows the system until the user picks one in
 * Settings › General (remembered in this browser, like the theme). Every text a user reads
 * goes through `t` (`useT`, `<Trans>`); numbers, dates and token counts through `format.ts`.
 */
import i18next, { type TFunction } from 'i18next'
import { useSyncExternalStore } from 'react'
import { initReactI18next, useTranslation } from 'react-i18next'
import en from './locales/en.json'
import { isLanguage, PSEUDO, systemLanguage, type Language, type UiLanguage } from './languages'
import { pseudoResources } from './pseudo'

export { Trans } from 'react-i18next'
export type { TFunction } from 'i18next'
export * from './languages'

type Tree = { [key: string]: string | Tree }

const LOADERS: Record<Exclude<Language, 'en'>, () => Promise<{ default: Tree }>> = {
  'zh-CN': () => import('./locales/zh-CN.json'),
  ja: () => import('./locales/ja.json'),
  de: () => import('./locales/de.json'),
  es: () => import('./locales/es.json'),
  fr: () => import('./locales/fr.json'),
  'pt-BR': () => import('./locales/pt-BR.json'),
}

export const i18n = i18next.createInstance()
void i18n.use(initReactI18next).init({
  lng: 'en',
  fallbackLng: 'en',
  supportedLngs: ['en', 'zh-CN', 'ja', 'de', 'es', 'fr', 'pt-BR', PSEUDO],
  resources: { en: { translation: en } },
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
  react: { useSuspense: false },
})

async function loadResources(lng: UiLanguage): Promise<void> {
  if (i18n.hasResourceBundle(lng, 'translation')) return
  const tree =
    lng === PSEUDO ? pseudoResources(en) : lng === 'en' ? en : (await LOADERS[lng]()).default
  i18n.addResourceBundle(lng, 'translation', tree, true, true)
}

// ── the user's choice ────────────────────────────────────────────────────────

/** what the user chose: a language, or whatever the system prefers */
export type LanguageChoice = Language | 'system'
const KEY = 'cairn.language'

function storedChoice(): LanguageChoice {
  try {
    const v = localStorage.getItem(KEY)
    return isLanguage(v) ? v : 'system'
  } catch {
    return 'system'
  }
}

function preferred(): readonly string[] {
  if (typeof navigator === 'undefined') return []
  return navigator.languages?.length ? navigator.languages : [navigator.language]
}

/** The system's language, or the pseudo-locale when the system asks for it (en-XA). */
function fromSystem(): UiLanguage {
  return preferred().includes(PSEUDO) ? PSEUDO : systemLanguage(preferred())
}

let choice: LanguageChoice = 'system'
const listeners = new Set<() => void>()
let started = false

async function apply(next: LanguageChoice): Promise<void> {
  choice = next
  const lng = next === 'system' ? fromSystem() : next
  await loadResources(lng)
  if (choice !== next) return // chosen again meanwhile
  await i18n.changeLanguage(lng)
  if (typeof document !== 'undefined') document.documentElement.lang = lng
  for (const l of [...listeners]) l()
}

/**
 * Loads the language the window starts in (the user's or the system's) and follows the
 * system's and other tabs' changes from then on. main.tsx waits for it before the first paint.
 */
export function startLanguage(): Promise<void> {
  if (!started && typeof window !== 'undefined') {
    started = true
    window.addEventListener('languagechange', () => {
      if (choice === 'system') void apply('system')
    })
    window.addEventListener('storage', (e) => {
      if (e.key === KEY) void apply(storedChoice())
    })
  }
  return apply(storedChoice())
}

/** Remembers the choice ('system' forgets the override) and switches the window to it. */
export async function setLanguageChoice(next: LanguageChoice): Promise<void> {
  try {
    if (next === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, next)
  } catch {
    // storage refused: the choice lasts for this page
  }
  await apply(next)
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener)
  return () => listeners.delete(listener)
}

export function useLanguageChoice(): [LanguageChoice, (next: LanguageChoice) => Promise<void>] {
  const c = useSyncExternalStore(subscribe, () => choice)
  return [c, setLanguageChoice]
}

/** The translation function of the window's language; components re-render when it changes. */
export function useT(): TFunction {
  return useTranslation().t
}

/** The window's language (its tag, or en-XA for the pseudo-locale); re-renders when it changes. */
export function useLanguage(): string {
  return useTranslation().i18n.language
}

/** The window's language as a BCP 47 tag for Intl (the pseudo-locale formats as English). */
export function intlLocale(): string {
  const lng = i18n.language
  return !lng || lng === PSEUDO ? 'en' : lng
}
