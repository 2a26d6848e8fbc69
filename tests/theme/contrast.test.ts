/** The theme's text and button colours meet WCAG AA (4.5:1) in both themes. */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'

const css = readFileSync('src-renderer/src/styles.css', 'utf8')

function block(selector: string): Record<string, string> {
  const start = css.indexOf(`${selector} {`)
  if (start < 0) throw new Error(`no ${selector} block`)
  const body = css.slice(start, css.indexOf('}', start))
  const vars: Record<string, string> = {}
  for (const m of body.matchAll(/--([\w-]+):\s*(#[0-9a-f]{6})/gi)) vars[m[1]!] = m[2]!
  return vars
}

function luminance(hex: string): number {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255)
  const [r, g, b] = c.map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [
    number,
    number,
    number,
  ]
  return 0.2126 * r + 0.7152 * g + 0.0722 * b
}

function contrast(a: string, b: string): number {
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p) as [number, number]
  return (x + 0.05) / (y + 0.05)
}

/** [text, background] pairs the window uses */
const PAIRS: [string, string][] = [
  ['fg', 'bg'],
  ['fg', 'bg-elev'],
  ['fg', 'user-bg'],
  ['fg', 'code-bg'],
  ['fg', 'error-bg'],
  ['fg-muted', 'bg'],
  ['fg-muted', 'bg-elev'],
  ['fg-muted', 'bg-sunk'],
  ['accent', 'bg-elev'],
  ['accent-fg', 'accent'],
  ['danger-fg', 'danger'],
  ['danger', 'bg-elev'],
  ['danger', 'bg'],
  ['warning', 'warning-bg'],
  ['warning', 'bg-elev'],
]

describe('theme contrast (WCAG AA)', () => {
  const light = block(':root')
  const dark = { ...light, ...block(":root[data-theme='dark']") }
  for (const [name, theme] of [
    ['light', light],
    ['dark', dark],
  ] as const) {
    it(`${name}: every text/background pair is at least 4.5:1`, () => {
      const low = PAIRS.map(([fg, bg]) => ({ fg, bg, ratio: contrast(theme[fg]!, theme[bg]!) }))
        .filter((p) => !(p.ratio >= 4.5))
        .map((p) => `${p.fg} on ${p.bg}: ${p.ratio.toFixed(2)}`)
      expect(low).toEqual([])
    })
  }

  it('measures what it should: black on white is 21:1, and a grey pair fails', () => {
    expect(contrast('#000000', '#ffffff')).toBeCloseTo(21, 1)
    expect(contrast('#777777', '#888888')).toBeLessThan(4.5)
  })
})
