import { describe, expect, it } from 'vitest'
import { LoopDetector } from '../../src-main/core/agent/loop-detector'

describe('LoopDetector', () => {
  it('treats key order as irrelevant when comparing arguments', () => {
    const d = new LoopDetector(3, 1)
    expect(d.record('t', { a: 1, b: { c: 2, d: 3 } }).verdict).toBe('ok')
    expect(d.record('t', { b: { d: 3, c: 2 }, a: 1 }).verdict).toBe('ok')
    expect(d.record('t', { a: 1, b: { c: 2, d: 3 } })).toEqual({ verdict: 'warn', count: 3 })
    expect(d.record('t', { a: 1, b: { c: 2, d: 3 } })).toEqual({ verdict: 'stop', count: 4 })
  })

  it('does not count the same tool with other arguments', () => {
    const d = new LoopDetector(3, 1)
    for (let i = 0; i < 10; i++) expect(d.record('read', { path: `f${i}` }).verdict).toBe('ok')
  })

  it('finds cycles of length up to four', () => {
    const d = new LoopDetector(3, 2)
    const seq = ['a', 'b', 'c', 'a', 'b', 'c', 'a', 'b']
    for (const s of seq) expect(d.record(s, {}).verdict).toBe('ok')
    expect(d.record('c', {})).toEqual({ verdict: 'warn', count: 3 })
  })

  it('a repeated call is period one, not a cycle of two', () => {
    const d = new LoopDetector(3, 2)
    expect(d.record('a', {}).verdict).toBe('ok')
    expect(d.record('a', {}).verdict).toBe('ok')
    expect(d.record('a', {}).count).toBe(3)
  })
})
