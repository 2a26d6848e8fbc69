import { describe, expect, it } from 'vitest'
import githubLight from '@shikijs/themes/github-light'
import githubDark from '@shikijs/themes/github-dark'
import {
  COLOR_REPLACEMENTS,
  DARK_THEME,
  LIGHT_THEME,
  highlightCode,
  type HighlightLines,
} from '../../src-renderer/src/ui/markdown/highlight-core'
import {
  LANGUAGES,
  MAX_HIGHLIGHT_LINES,
  resolveLanguage,
} from '../../src-renderer/src/ui/markdown/languages'

const textOf = (lines: HighlightLines): string =>
  lines.map((line) => line.map((t) => t.content).join('')).join('\n')

describe('resolveLanguage', () => {
  it('knows the languages by id and by their usual aliases, in any case', () => {
    expect(resolveLanguage('typescript')).toBe('typescript')
    expect(resolveLanguage('ts')).toBe('typescript')
    expect(resolveLanguage('JS')).toBe('javascript')
    expect(resolveLanguage('py')).toBe('python')
    expect(resolveLanguage('zsh')).toBe('shellscript')
    expect(resolveLanguage('sh')).toBe('shellscript')
    expect(resolveLanguage('yml')).toBe('yaml')
    expect(resolveLanguage('rs')).toBe('rust')
    expect(resolveLanguage('c++')).toBe('cpp')
    expect(resolveLanguage('cs')).toBe('csharp')
    expect(resolveLanguage('rb')).toBe('ruby')
    expect(resolveLanguage('md')).toBe('markdown')
    expect(resolveLanguage('ps1')).toBe('powershell')
    expect(resolveLanguage('ts title="a.ts"')).toBe('typescript')
  })

  it('gives null for no language and for languages not on the list', () => {
    expect(resolveLanguage('')).toBeNull()
    expect(resolveLanguage(undefined)).toBeNull()
    expect(resolveLanguage('brainfuck')).toBeNull()
    expect(resolveLanguage('toString')).toBeNull()
    expect(resolveLanguage('__proto__')).toBeNull()
  })
})

describe('highlightCode (JavaScript regex engine, in Node)', () => {
  it('colors a known language for both themes', async () => {
    const code = 'const answer: number = 42 // the answer\nexport default answer'
    const lines = await highlightCode(code, 'typescript')
    expect(lines).not.toBeNull()
    const tokens = (lines as HighlightLines).flat()
    const keyword = tokens.find((t) => t.content.trim() === 'const')
    expect(keyword?.light).toMatch(/^#[0-9a-f]{6}$/)
    expect(keyword?.dark).toMatch(/^#[0-9a-f]{6}$/)
    expect(keyword?.light).not.toBe(keyword?.dark)
    const comment = tokens.find((t) => t.content.includes('the answer'))
    expect(comment?.light).toBeDefined()
    expect(comment?.light).not.toBe(keyword?.light)
    // the tokens spell out the code exactly
    expect(textOf(lines as HighlightLines)).toBe(code)
  })

  it('resolves an alias to the same highlighting', async () => {
    const code = 'def f(x):\n    return x * 2'
    expect(await highlightCode(code, 'py')).toEqual(await highlightCode(code, 'python'))
    const sh = await highlightCode('echo "hi" | grep h', 'sh')
    expect(sh?.flat().some((t) => t.light !== undefined)).toBe(true)
  })

  it('gives null for an unknown language or none (it never guesses)', async () => {
    expect(await highlightCode('const x = 1', 'klingon')).toBeNull()
    expect(await highlightCode('const x = 1', '')).toBeNull()
  })

  it('gives null for a block over the size limits', async () => {
    const big = 'x = 1\n'.repeat(MAX_HIGHLIGHT_LINES + 1)
    expect(await highlightCode(big, 'python')).toBeNull()
    expect(await highlightCode('a'.repeat(100_001), 'python')).toBeNull()
  })

  it('loads and highlights every language on the list', async () => {
    const sample = 'x = "a" # 1\n<b>{c}</b> -- 2;'
    for (const lang of LANGUAGES) {
      const lines = await highlightCode(sample, lang)
      expect(lines, lang).not.toBeNull()
      expect(textOf(lines as HighlightLines), lang).toBe(sample)
    }
  })
})

describe('token colors', () => {
  const lum = (hex: string): number => {
    const [r, g, b] = [1, 3, 5].map((i) => {
      const v = parseInt(hex.slice(i, i + 2), 16) / 255
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4
    }) as [number, number, number]
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const contrast = (a: string, b: string): number => {
    const [x, y] = [lum(a), lum(b)]
    return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05)
  }
  const foregrounds = (theme: typeof githubLight, name: string): string[] => {
    const replace = COLOR_REPLACEMENTS[name] ?? {}
    const colors = new Set<string>()
    for (const rule of theme.tokenColors ?? theme.settings ?? []) {
      const fg = rule.settings?.foreground?.toLowerCase()
      if (fg) colors.add(replace[fg] ?? fg)
    }
    const fg = theme.colors?.['editor.foreground']?.toLowerCase()
    if (fg) colors.add(replace[fg] ?? fg)
    return [...colors]
  }

  it('meet WCAG AA (4.5:1) on light code backgrounds from #ffffff to #e6e9e8', () => {
    for (const color of foregrounds(githubLight, LIGHT_THEME)) {
      for (const bg of ['#ffffff', '#f3f5f4', '#e6e9e8']) {
        expect(contrast(color, bg), `${color} on ${bg}`).toBeGreaterThanOrEqual(4.5)
      }
    }
  })

  it('meet WCAG AA (4.5:1) on dark code backgrounds from #0d1117 to #2d3330', () => {
    for (const color of foregrounds(githubDark, DARK_THEME)) {
      for (const bg of ['#0d1117', '#0f1211', '#2d3330']) {
        expect(contrast(color, bg), `${color} on ${bg}`).toBeGreaterThanOrEqual(4.5)
      }
    }
  })
})
