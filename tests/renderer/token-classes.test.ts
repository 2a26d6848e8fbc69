// @vitest-environment jsdom
import { describe, expect, it } from 'vitest'
import { tokenColorClass } from '../../src-renderer/src/ui/markdown/token-classes'

const rulesText = (): string =>
  [...document.styleSheets]
    .flatMap((s) => [...s.cssRules])
    .map((r) => r.cssText)
    .join('\n')

describe('highlighted code colors as classes', () => {
  it('gives the same pair of colors one class, with its rule in a style sheet', () => {
    const a = tokenColorClass('#c4212f', '#f97583')
    expect(a).toMatch(/^md-c\d+$/)
    expect(tokenColorClass('#c4212f', '#f97583')).toBe(a)
    const b = tokenColorClass('#c4212f', undefined)
    expect(b).not.toBe(a)
    expect(rulesText()).toContain(`.${a}`)
    expect(rulesText()).toMatch(new RegExp(`\\.${b} \\{ --l: #c4212f; \\}`))
  })

  it('gives no class without colors, nor for a color that is not a hex color', () => {
    expect(tokenColorClass(undefined, undefined)).toBe('')
    expect(tokenColorClass('red; } body { display: none', '#000000')).toBe('')
    expect(rulesText()).not.toContain('display: none')
  })
})
