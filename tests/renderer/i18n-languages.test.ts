/** The system's language mapped to a shipped one, the pseudo-locale, and locale formatting. */
import { describe, expect, it } from 'vitest'
import { matchLanguage, systemLanguage } from '../../src-renderer/src/i18n/languages'
import { pseudoText } from '../../src-renderer/src/i18n/pseudo'
import { formatters } from '../../src-renderer/src/i18n/format'

describe('the system language', () => {
  it('is the first of the system’s languages that Cairn ships, else English', () => {
    expect(systemLanguage(['ja-JP', 'en-US'])).toBe('ja')
    expect(systemLanguage(['nl-NL', 'de-AT', 'en'])).toBe('de')
    expect(systemLanguage(['nl-NL'])).toBe('en')
    expect(systemLanguage([])).toBe('en')
  })

  it('takes any Chinese as Simplified Chinese and any Portuguese as Brazilian', () => {
    expect(matchLanguage('zh')).toBe('zh-CN')
    expect(matchLanguage('zh-TW')).toBe('zh-CN')
    expect(matchLanguage('pt-PT')).toBe('pt-BR')
    expect(matchLanguage('pt_br')).toBe('pt-BR')
    expect(matchLanguage('fr-CA')).toBe('fr')
    expect(matchLanguage('ko')).toBeNull()
  })
})

describe('the pseudo-locale', () => {
  it('accents and lengthens a text by about 40 % and keeps placeholders and tags', () => {
    const text = 'Could not load {{what}}: <code>{{error}}</code>'
    const pseudo = pseudoText(text)
    expect(pseudo).toContain('{{what}}')
    expect(pseudo).toContain('<code>{{error}}</code>')
    expect(pseudo).toMatch(/Çöüld/)
    const visible = (s: string): number => s.replace(/\{\{\w+\}\}|<\/?code>/g, '').length
    expect(visible(pseudo)).toBeGreaterThanOrEqual(Math.ceil(visible(text) * 1.4))
  })
})

describe('formatting for the locale', () => {
  it('writes numbers, token counts and dates the language’s way', () => {
    expect(formatters('en').number(12345)).toBe('12,345')
    expect(formatters('de').number(12345)).toBe('12.345')
    expect(formatters('fr').number(12345)).toMatch(/^12\s345$/u)
    expect(formatters('en').tokens(1234)).toBe('1,234')
    expect(formatters('en').tokens(123_456)).toBe('123.5K')
    expect(formatters('ja').tokens(123_456)).toBe('12.3万')
    const at = Date.UTC(2026, 10, 28, 12)
    expect(formatters('ja').date(at, { timeZone: 'UTC' })).toBe('2026/11/28')
    expect(formatters('de').date(at, { timeZone: 'UTC' })).toBe('28.11.2026')
    expect(formatters('en').list(['a', 'b', 'c'])).toBe('a, b, and c')
    expect(formatters('zh-CN').percent(70)).toBe('70%')
  })
})
