/**
 * The desktop shell's own words (the tray's menu, the Quick ask window's title, the question
 * asked at the first close), in the window's languages (locales/<language>.json, one file a
 * language, the same keys as en.json), chosen the way the window chooses: the system's first
 * language that Cairn ships, else English.
 */
import { systemLanguage, type Language } from '../../src-renderer/src/i18n/languages'
import de from './locales/de.json'
import en from './locales/en.json'
import es from './locales/es.json'
import fr from './locales/fr.json'
import ja from './locales/ja.json'
import ptBR from './locales/pt-BR.json'
import zhCN from './locales/zh-CN.json'

export type ShellText = typeof en

export const SHELL_LOCALES: Record<Language, Partial<ShellText>> = {
  en,
  'zh-CN': zhCN,
  ja,
  de,
  es,
  fr,
  'pt-BR': ptBR,
}

/** the shell's words in `language`, English where a word is missing */
export function shellText(language: Language): ShellText {
  return { ...en, ...SHELL_LOCALES[language] }
}

/** the shell's words in the first of the system's languages Cairn ships (`app.getPreferredSystemLanguages()`) */
export function systemShellText(preferred: readonly string[]): ShellText {
  return shellText(systemLanguage(preferred))
}
