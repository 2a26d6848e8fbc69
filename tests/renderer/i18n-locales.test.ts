/**
 * Every shipped locale has every English key, no other key, the same placeholders and
 * tags, and exactly the plural forms its language needs (Intl.PluralRules: Japanese and
 * Chinese have one, French and Portuguese have "many" besides "one" and "other").
 */
import { describe, expect, it } from 'vitest'
import { LANGUAGES, type Language } from '../../src-renderer/src/i18n/languages'
import de from '../../src-renderer/src/i18n/locales/de.json'
import en from '../../src-renderer/src/i18n/locales/en.json'
import es from '../../src-renderer/src/i18n/locales/es.json'
import fr from '../../src-renderer/src/i18n/locales/fr.json'
import ja from '../../src-renderer/src/i18n/locales/ja.json'
import ptBR from '../../src-renderer/src/i18n/locales/pt-BR.json'
import zhCN from '../../src-renderer/src/i18n/locales/zh-CN.json'

type Tree = { [key: string]: string | Tree }
/** one file per shipped language (the typecheck fails when one is missing) */
const FILES: Record<Language, Tree> = { en, de, es, fr, ja, 'pt-BR': ptBR, 'zh-CN': zhCN }

function flatten(tree: Tree, prefix = ''): Map<string, string> {
  const out = new Map<string, string>()
  for (const [k, v] of Object.entries(tree)) {
    const key = prefix ? `${prefix}.${k}` : k
    if (typeof v === 'string') out.set(key, v)
    else for (const [kk, vv] of flatten(v, key)) out.set(kk, vv)
  }
  return out
}

const load = (lng: Language): Map<string, string> => flatten(FILES[lng])

const PLURAL = /_(zero|one|two|few|many|other)$/
/** a key's base and the plural form it is for (none for a plain key) */
const plural = (key: string): [string, string | null] => {
  const m = PLURAL.exec(key)
  return m ? [key.slice(0, m.index), m[1]!] : [key, null]
}

/** the keys a locale must have: English's, with each plural base in the language's forms */
function expectedKeys(en: Map<string, string>, lng: string): Set<string> {
  const forms = new Intl.PluralRules(lng).resolvedOptions().pluralCategories
  const out = new Set<string>()
  for (const key of en.keys()) {
    const [base, form] = plural(key)
    if (form === null) out.add(key)
    else for (const f of forms) out.add(`${base}_${f}`)
  }
  return out
}

const placeholders = (text: string): string[] =>
  [...text.matchAll(/\{\{\s*([\w.]+)[^}]*\}\}|<\/?(\w+)\s*\/?>|\$t\(([^)]*)\)/g)]
    .map((m) => m[0].replace(/\s+/g, ''))
    .sort()

const english = load('en')

describe('the locales', () => {
  it('English uses the plural forms English has (one, other) and no empty text', () => {
    for (const [key, text] of english) {
      const [, form] = plural(key)
      if (form) expect(['one', 'other'], key).toContain(form)
      expect(text.trim(), key).not.toBe('')
    }
  })

  for (const lng of LANGUAGES.filter((l) => l !== 'en')) {
    describe(lng, () => {
      const texts = load(lng)
      const expected = expectedKeys(english, lng)

      it('has every key of English and no other', () => {
        const missing = [...expected].filter((k) => !texts.has(k))
        const extra = [...texts.keys()].filter((k) => !expected.has(k))
        expect({ missing, extra }).toEqual({ missing: [], extra: [] })
      })

      it('keeps the placeholders and tags of every English text', () => {
        const wrong: string[] = []
        for (const [key, text] of texts) {
          const [base, form] = plural(key)
          const source = form ? (english.get(`${base}_other`) ?? '') : (english.get(key) ?? '')
          const want = placeholders(source)
          const have = placeholders(text)
          // a language with one form may say the count in words it has: {{count}} is kept
          if (JSON.stringify(have) !== JSON.stringify(want)) wrong.push(`${key}: ${text}`)
        }
        expect(wrong).toEqual([])
      })

      it('has no empty text and none left in English where English is a sentence', () => {
        const untranslated: string[] = []
        for (const [key, text] of texts) {
          expect(text.trim(), key).not.toBe('')
          const [base, form] = plural(key)
          const source = form ? english.get(`${base}_other`) : english.get(key)
          // a sentence of four words or more that is the same as English was not translated
          if (source && text === source && source.split(/\s+/).length >= 4) untranslated.push(key)
        }
        expect(untranslated).toEqual([])
      })
    })
  }
})
