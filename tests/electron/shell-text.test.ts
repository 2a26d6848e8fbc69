/**
 * The desktop shell's words (src-main/electron/locales): every language has every key, in
 * its own words, and the shell speaks the system's first language Cairn ships.
 */
import { describe, expect, it } from 'vitest'
import { SHELL_LOCALES, shellText, systemShellText } from '../../src-main/electron/shell-text'
import { LANGUAGES } from '../../src-renderer/src/i18n/languages'

describe('the shell’s words', () => {
  it('are complete in every language the window ships', () => {
    const keys = Object.keys(SHELL_LOCALES.en).sort()
    expect(Object.keys(SHELL_LOCALES).sort()).toEqual([...LANGUAGES].sort())
    for (const language of LANGUAGES) {
      const words = SHELL_LOCALES[language]
      expect(Object.keys(words).sort(), language).toEqual(keys)
      for (const value of Object.values(words)) expect(value, language).toMatch(/\S/)
    }
    // translated, not copied (the tooltip is the name)
    for (const language of LANGUAGES.filter((l) => l !== 'en'))
      expect(SHELL_LOCALES[language].quickAsk).not.toBe(SHELL_LOCALES.en.quickAsk)
  })

  it('follow the system’s first language Cairn ships, else English', () => {
    expect(systemShellText(['fr-CA', 'en-US']).quit).toBe('Quitter Cairn')
    expect(systemShellText(['zh-TW']).newChat).toBe(shellText('zh-CN').newChat)
    expect(systemShellText(['pt-PT']).show).toBe('Mostrar o Cairn')
    expect(systemShellText(['ko-KR', 'de-AT']).newChat).toBe('Neuer Chat')
    expect(systemShellText(['ko-KR'])).toEqual(shellText('en'))
    expect(systemShellText([])).toEqual(shellText('en'))
  })
})
