/**
 * Syntax highlighting, without the DOM: shiki's core with its JavaScript regex engine (no
 * WASM), two themes (github-light and github-dark) and the grammars of `languages.ts`, each
 * loaded on first use. The worker (`highlight.worker.ts`) wraps this module; tests run it in
 * Node. It returns tokens, never HTML: the renderer turns them into spans itself.
 */
import { createHighlighterCore, type HighlighterCore, type LanguageRegistration } from 'shiki/core'
import { createJavaScriptRegexEngine } from 'shiki/engine/javascript'
import githubLight from '@shikijs/themes/github-light'
import githubDark from '@shikijs/themes/github-dark'
import { resolveLanguage, withinHighlightLimits, type LanguageId } from './languages'

/** One run of text of one color. `light`/`dark` are hex colors; `style` a FontStyle bit set. */
export interface HighlightToken {
  content: string
  light?: string
  dark?: string
  /** 1 italic, 2 bold, 4 underline, 8 strikethrough (shiki's FontStyle); absent when none. */
  style?: number
}

/** Lines of tokens; the lines' contents joined with '\n' give back the code. */
export type HighlightLines = HighlightToken[][]

type GrammarModule = { default: LanguageRegistration[] }

/** One dynamic import per language, so the bundler emits one lazy chunk per grammar. */
const GRAMMARS: Record<LanguageId, () => Promise<GrammarModule>> = {
  typescript: () => import('@shikijs/langs/typescript'),
  javascript: () => import('@shikijs/langs/javascript'),
  tsx: () => import('@shikijs/langs/tsx'),
  jsx: () => import('@shikijs/langs/jsx'),
  json: () => import('@shikijs/langs/json'),
  python: () => import('@shikijs/langs/python'),
  shellscript: () => import('@shikijs/langs/shellscript'),
  yaml: () => import('@shikijs/langs/yaml'),
  toml: () => import('@shikijs/langs/toml'),
  html: () => import('@shikijs/langs/html'),
  css: () => import('@shikijs/langs/css'),
  scss: () => import('@shikijs/langs/scss'),
  sql: () => import('@shikijs/langs/sql'),
  rust: () => import('@shikijs/langs/rust'),
  go: () => import('@shikijs/langs/go'),
  java: () => import('@shikijs/langs/java'),
  kotlin: () => import('@shikijs/langs/kotlin'),
  swift: () => import('@shikijs/langs/swift'),
  c: () => import('@shikijs/langs/c'),
  cpp: () => import('@shikijs/langs/cpp'),
  csharp: () => import('@shikijs/langs/csharp'),
  ruby: () => import('@shikijs/langs/ruby'),
  php: () => import('@shikijs/langs/php'),
  diff: () => import('@shikijs/langs/diff'),
  markdown: () => import('@shikijs/langs/markdown'),
  xml: () => import('@shikijs/langs/xml'),
  dockerfile: () => import('@shikijs/langs/dockerfile'),
  powershell: () => import('@shikijs/langs/powershell'),
  lua: () => import('@shikijs/langs/lua'),
  ini: () => import('@shikijs/langs/ini'),
}

export const LIGHT_THEME = 'github-light'
export const DARK_THEME = 'github-dark'

/**
 * Token colors that github-light / github-dark use below WCAG AA (4.5:1), replaced by the
 * nearest color of the same hue that passes: light ones on any --code-bg from #ffffff down to
 * #e6e9e8, dark ones on any from #0d1117 up to #2d3330 (tests/renderer/highlight-core.test.ts
 * checks every color of both themes). Keys are lowercase, as shiki wants.
 */
export const COLOR_REPLACEMENTS: Record<string, Record<string, string>> = {
  [LIGHT_THEME]: {
    '#6a737d': '#57606a', // comments (4.8 on white, 4.2 on a grey code background)
    '#e36209': '#a94600', // variables, parameters (3.5 even on white)
    '#d73a49': '#c4212f', // keywords, storage
    '#22863a': '#176f2c', // tags, inserted lines
    '#fafbfc': '#24292e', // colors the theme pairs with a background we do not draw
    '#f6f8fa': '#24292e',
  },
  [DARK_THEME]: {
    '#6a737d': '#9aa3ab', // comments (3.1 on the theme's own background)
    '#24292e': '#e1e4e8', // colors the theme pairs with a background we do not draw
    '#2f363d': '#e1e4e8',
  },
}

/** Lines longer than this are left plain by shiki (minified code, data blobs). */
const MAX_LINE_LENGTH = 5_000

/**
 * A bit of most languages' syntax (strings, comments, numbers, calls, classes, types, tags)
 * to tokenize once when a language loads.
 */
const WARM_UP = [
  '# comment',
  '// comment /* block */',
  'import { a, type B } from "y"; export default class C<T> extends D implements E {',
  '  private x: Map<string, number[]> = new Map(); static #y = /re+/g;',
  "  async f(p: string, q = `t ${p}`): Promise<void> { if (!p) throw new Error('e'); }",
  '}',
  'const g = (v) => v?.w ?? [1, 2.5e3, 0x1f].map((n) => n * 2) + b->c::d;',
  'def h(x): return x if x else None',
  '<tag attr="v">text {expr}</tag> $var @dec',
].join('\n')

let highlighter: Promise<HighlighterCore> | null = null
const loaded = new Map<LanguageId, Promise<void>>()

function getHighlighter(): Promise<HighlighterCore> {
  highlighter ??= createHighlighterCore({
    themes: [githubLight, githubDark],
    langs: [],
    // forgiving: a grammar pattern the JS engine cannot express is skipped, not fatal
    engine: createJavaScriptRegexEngine({ forgiving: true }),
  })
  return highlighter
}

/** Loads a language's grammar (and the grammars it embeds) once. */
export function loadLanguage(lang: LanguageId): Promise<void> {
  let p = loaded.get(lang)
  if (!p) {
    p = (async () => {
      const [hl, mod] = await Promise.all([getHighlighter(), GRAMMARS[lang]()])
      await hl.loadLanguage(...mod.default)
      // The engine compiles a grammar's regexes when it first meets them: up to a second and
      // a half for C++. Do the bulk of that now, so that it is not charged to (and does not
      // time out) the first real block.
      tokenizeLoaded(hl, WARM_UP, lang)
    })()
    p.catch(() => loaded.delete(lang))
    loaded.set(lang, p)
  }
  return p
}

/** Tokenizes code of an already loaded language. Synchronous: this is the part to time-box. */
export function tokenizeLoaded(
  hl: HighlighterCore,
  code: string,
  lang: LanguageId,
): HighlightLines {
  const { tokens } = hl.codeToTokens(code, {
    lang,
    themes: { light: LIGHT_THEME, dark: DARK_THEME },
    // no default color: every token carries --shiki-light and --shiki-dark in htmlStyle
    defaultColor: false,
    colorReplacements: COLOR_REPLACEMENTS,
    tokenizeMaxLineLength: MAX_LINE_LENGTH,
  })
  return tokens.map((line) => {
    const out: HighlightToken[] = []
    for (const t of line) {
      const tok: HighlightToken = { content: t.content }
      const s = t.htmlStyle
      if (s) {
        const light = s['--shiki-light']
        const dark = s['--shiki-dark']
        if (light) tok.light = light.toLowerCase()
        if (dark) tok.dark = dark.toLowerCase()
        const style = fontStyleOf(s)
        if (style) tok.style = style
      } else {
        if (t.color) tok.light = tok.dark = t.color.toLowerCase()
        if (t.fontStyle && t.fontStyle > 0) tok.style = t.fontStyle
      }
      // Fewer spans: whitespace joins the run before it, and so does a run of the same look.
      const prev = out[out.length - 1]
      if (prev && (isBlank(tok.content) || sameLook(prev, tok))) prev.content += tok.content
      else out.push(tok)
    }
    return out
  })
}

const isBlank = (s: string): boolean => /^[ \t]*$/.test(s)

const sameLook = (a: HighlightToken, b: HighlightToken): boolean =>
  a.light === b.light && a.dark === b.dark && a.style === b.style

function fontStyleOf(s: Record<string, string>): number {
  const parts = `${s['--shiki-light-font-style'] ?? ''} ${s['--shiki-light-font-weight'] ?? ''} ${s['--shiki-light-text-decoration'] ?? ''}`
  let style = 0
  if (parts.includes('italic')) style |= 1
  if (parts.includes('bold')) style |= 2
  if (parts.includes('underline')) style |= 4
  if (parts.includes('line-through')) style |= 8
  return style
}

/**
 * Tokens for `code` in the language a fence names, or null: no name, a name we do not
 * highlight (we never guess), or a block over the size limits.
 */
export async function highlightCode(
  code: string,
  langName: string,
): Promise<HighlightLines | null> {
  const lang = resolveLanguage(langName)
  if (lang === null || !withinHighlightLimits(code)) return null
  await loadLanguage(lang)
  return tokenizeLoaded(await getHighlighter(), code, lang)
}

/** For the worker: the highlighter once ready, after the language is loaded. */
export async function prepare(lang: LanguageId): Promise<HighlighterCore> {
  await loadLanguage(lang)
  return getHighlighter()
}
