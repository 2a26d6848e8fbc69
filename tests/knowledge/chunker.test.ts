/**
 * How files are split: Markdown at its headings and paragraphs (never inside a fenced code
 * block), code at blank lines, a PDF at its pages, each chunk with its lines.
 */
import { describe, expect, it } from 'vitest'
import { chunkStyle, chunkText, MAX_CHARS } from '../../src-main/adapters/knowledge/chunker'

describe('chunkText', () => {
  it('never lets a chunk cross a Markdown heading, and names the heading', () => {
    const md = [
      '# Refunds',
      '',
      'Damaged goods are refunded.',
      '',
      '## Shipping',
      '',
      'We ship by sea.',
    ].join('\n')
    const chunks = chunkText(md, 'markdown')
    expect(chunks.map((c) => [c.heading, c.startLine, c.endLine])).toEqual([
      ['Refunds', 1, 3],
      ['Shipping', 5, 7],
    ])
    expect(chunks[1]!.text).toBe('## Shipping\n\nWe ship by sea.')
  })

  it('keeps a fenced code block whole, blank lines and # lines inside it included', () => {
    const md = ['# Setup', '', '```sh', '# not a heading', '', 'npm ci', '```', '', 'Done.'].join(
      '\n',
    )
    const chunks = chunkText(md, 'markdown')
    expect(chunks).toHaveLength(1)
    expect(chunks[0]!.text).toContain('# not a heading\n\nnpm ci')
    expect(chunks[0]!.heading).toBe('Setup')
  })

  it('splits code at blank lines into chunks of about the target size, with their line ranges', () => {
    const fn = (i: number): string =>
      [`function f${i}() {`, ...Array(20).fill(`  return ${'x'.repeat(40)}`), '}'].join('\n')
    const code = Array.from({ length: 6 }, (_, i) => fn(i)).join('\n\n')
    const chunks = chunkText(code, chunkStyle('lib.ts'))
    expect(chunks.length).toBeGreaterThan(1)
    // every chunk starts at a function, and the ranges cover the file in order
    for (const c of chunks) expect(c.text.startsWith('function f')).toBe(true)
    expect(chunks[0]!.startLine).toBe(1)
    expect(chunks.at(-1)!.endLine).toBe(code.split('\n').length)
    for (let i = 1; i < chunks.length; i++)
      expect(chunks[i]!.startLine).toBeGreaterThan(chunks[i - 1]!.endLine)
  })

  it('gives each PDF page its own chunks, numbered by page', () => {
    const pages = ['Page one text.', 'Page two text.']
    const text = pages.join('\n\n')
    const chunks = chunkText(text, 'prose', [0, pages[0]!.length + 2])
    expect(chunks.map((c) => [c.page, c.text])).toEqual([
      [1, 'Page one text.'],
      [2, 'Page two text.'],
    ])
  })

  it('cuts a line longer than the limit at characters', () => {
    const chunks = chunkText('a'.repeat(MAX_CHARS * 3), 'prose')
    expect(chunks.length).toBeGreaterThan(2)
    for (const c of chunks) expect(c.text.length).toBeLessThanOrEqual(MAX_CHARS)
    expect(chunks.map((c) => c.text).join('')).toHaveLength(MAX_CHARS * 3)
  })

  it('chooses the style by the name', () => {
    expect(chunkStyle('README.md')).toBe('markdown')
    expect(chunkStyle('main.py')).toBe('code')
    expect(chunkStyle('notes.txt')).toBe('prose')
  })
})
