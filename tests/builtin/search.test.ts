/** The glob matcher and search_files over a real tree. */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { compileGlob } from '../../src-main/adapters/builtin-tools/glob'
import { harness, posix } from './harness'

function matches(pattern: string, p: string): boolean {
  return compileGlob(pattern)(p)
}

describe('glob matcher', () => {
  it('* stays within a segment, ** spans any number of segments', () => {
    expect(matches('*.ts', 'a.ts')).toBe(true)
    expect(matches('*.ts', 'src/a.ts')).toBe(false)
    expect(matches('**/*.ts', 'a.ts')).toBe(true)
    expect(matches('**/*.ts', 'src/deep/er/a.ts')).toBe(true)
    expect(matches('**/*.ts', 'src/a.tsx')).toBe(false)
    expect(matches('src/**/*.ts', 'src/a.ts')).toBe(true)
    expect(matches('src/**/*.ts', 'src/x/y/a.ts')).toBe(true)
    expect(matches('src/**/*.ts', 'lib/src/a.ts')).toBe(false)
    expect(matches('src/**', 'src/x/y')).toBe(true)
    expect(matches('src/**', 'src')).toBe(true)
    expect(matches('src/**', 'srcx')).toBe(false)
    expect(matches('*', '.env')).toBe(true)
    expect(matches('**', 'any/thing/at/all')).toBe(true)
    expect(matches('a/**/b', 'a/b')).toBe(true)
    expect(matches('a/**/b', 'a/x/y/b')).toBe(true)
    expect(matches('./docs/*.md', 'docs/readme.md')).toBe(true)
  })

  it('? matches one character but never a slash', () => {
    expect(matches('file?.txt', 'file1.txt')).toBe(true)
    expect(matches('file?.txt', 'file12.txt')).toBe(false)
    expect(matches('a?b', 'a/b')).toBe(false)
  })

  it('{a,b} alternatives, nested, with wildcards and slashes', () => {
    expect(matches('*.{ts,tsx}', 'x.ts')).toBe(true)
    expect(matches('*.{ts,tsx}', 'x.tsx')).toBe(true)
    expect(matches('*.{ts,tsx}', 'x.js')).toBe(false)
    expect(matches('{src,test}/**/*.{js,m{js,ts}}', 'test/a/b.mts')).toBe(true)
    expect(matches('{src,test}/**/*.{js,m{js,ts}}', 'docs/b.mjs')).toBe(false)
    expect(matches('{a/b,c}.txt', 'a/b.txt')).toBe(true)
    expect(matches('{lit}.txt', '{lit}.txt')).toBe(true)
    expect(matches('x{1,2}{a,b}', 'x2a')).toBe(true)
    expect(matches('x{1..3}', 'x2')).toBe(true)
  })

  it('character classes, negated classes and escapes', () => {
    expect(matches('log[0-9].txt', 'log7.txt')).toBe(true)
    expect(matches('log[0-9].txt', 'logx.txt')).toBe(false)
    expect(matches('log[!0-9].txt', 'logx.txt')).toBe(true)
    expect(matches('log[^0-9].txt', 'log3.txt')).toBe(false)
    expect(matches('[abc]', 'b')).toBe(true)
    expect(matches('[abc]', 'd')).toBe(false)
    expect(matches('[!/]', '/')).toBe(false)
    expect(matches('\\*.txt', '*.txt')).toBe(true)
    expect(matches('\\*.txt', 'a.txt')).toBe(false)
    expect(matches('a.b', 'axb')).toBe(false)
    expect(matches('(x)+', '(x)+')).toBe(true)
  })
})

function tree(h: ReturnType<typeof harness>): void {
  h.put('README.md', 'Cairn readme\nTODO: write more\n')
  h.put('src/a.ts', 'export const a = 1\n// TODO fix a\n')
  h.put('src/sub/b.ts', 'export const b = 2\n')
  h.put('src/c.js', 'const c = 3 // TODO c\n')
  h.put('src/view.tsx', 'export {} // todo lower\n')
  h.put('node_modules/dep/index.ts', 'TODO in a dependency\n')
  h.put('.git/hooks/hook.ts', 'TODO in git\n')
  h.put('data/blob.bin', Buffer.concat([Buffer.from('TODO binary'), Buffer.from([0, 1, 2])]))
}

describe('search_files', () => {
  it('finds files by glob, skipping node_modules and .git', async () => {
    const h = harness()
    tree(h)
    const r = await h.call('search_files', { pattern: '**/*.ts' })
    expect(r.isError).toBe(false)
    expect(r.text.split('\n')).toEqual(['src/a.ts', 'src/sub/b.ts'])
    const alt = await h.call('search_files', { pattern: '**/*.{ts,tsx}' })
    expect(alt.text.split('\n')).toEqual(['src/a.ts', 'src/sub/b.ts', 'src/view.tsx'])
    const top = await h.call('search_files', { pattern: '*.md' })
    expect(top.text).toBe('README.md')
  })

  it('matches the pattern relative to the search folder and reports workspace paths', async () => {
    const h = harness()
    tree(h)
    const r = await h.call('search_files', { pattern: '*.ts', path: 'src' })
    expect(r.text).toBe('src/a.ts')
  })

  it('finds lines by plain text as file:line: text, skipping binary files', async () => {
    const h = harness()
    tree(h)
    const r = await h.call('search_files', { text: 'TODO' })
    expect(r.text.split('\n')).toEqual([
      'README.md:2: TODO: write more',
      'src/a.ts:2: // TODO fix a',
      'src/c.js:1: const c = 3 // TODO c',
      '[1 binary file(s) skipped]',
    ])
    const ci = await h.call('search_files', { text: 'todo', ignoreCase: true, pattern: 'src/**' })
    expect(ci.text).toContain('src/view.tsx:1: export {} // todo lower')
    expect(ci.text).toContain('src/a.ts:2')
    expect(ci.text).not.toContain('README.md')
  })

  it('searches by regular expression, and explains an invalid one', async () => {
    const h = harness()
    tree(h)
    const r = await h.call('search_files', { text: 'const [ab] =', regex: true })
    expect(r.text.split('\n')).toEqual([
      'src/a.ts:1: export const a = 1',
      'src/sub/b.ts:1: export const b = 2',
      '[1 binary file(s) skipped]',
    ])
    const plain = await h.call('search_files', { text: 'const [ab] =' })
    expect(plain.text).toMatch(/^No results/)
    const bad = await h.call('search_files', { text: '(unclosed', regex: true })
    expect(bad.isError).toBe(true)
    expect(bad.text).toContain('not a valid regular expression')
  })

  it('caps the results and says so', async () => {
    const h = harness()
    h.put('many.txt', Array.from({ length: 30 }, () => 'hit').join('\n'))
    const r = await h.call('search_files', { text: 'hit', maxResults: 5 })
    const lines = r.text.split('\n')
    expect(lines.slice(0, 5)).toEqual([1, 2, 3, 4, 5].map((n) => `many.txt:${n}: hit`))
    expect(lines[5]).toContain('stopped at 5 results')
  })

  it('skips files above the size limit and counts them', async () => {
    const h = harness({ limits: { maxFileBytes: 100 } })
    h.put('small.txt', 'needle\n')
    h.put('large.txt', `needle\n${'x'.repeat(200)}`)
    const r = await h.call('search_files', { text: 'needle' })
    expect(r.text).toContain('small.txt:1: needle')
    expect(r.text).not.toContain('large.txt:')
    expect(r.text).toContain('1 file(s) above 100 bytes not searched')
  })

  it('needs a pattern or a text, and refuses absolute patterns', async () => {
    const h = harness()
    const none = await h.call('search_files', {})
    expect(none.isError).toBe(true)
    expect(none.text).toContain('pattern')
    const abs = await h.call('search_files', { pattern: '/etc/*' })
    expect(abs.isError).toBe(true)
    expect(abs.text).toContain('relative')
  })

  it('stays inside the workspace', async () => {
    const h = harness()
    fs.writeFileSync(path.join(h.outside, 'secret.ts'), 'TODO outside')
    h.put('in.ts', 'x')
    const r = await h.call('search_files', { text: 'TODO', path: '..' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('outside the workspace')
  })

  it.runIf(posix)('does not follow symbolic links out of the workspace', async () => {
    const h = harness()
    fs.mkdirSync(path.join(h.outside, 'lib'))
    fs.writeFileSync(path.join(h.outside, 'lib', 'secret.ts'), 'TODO outside')
    fs.writeFileSync(path.join(h.outside, 'file.ts'), 'TODO outside file')
    h.put('real/inside.ts', 'TODO inside')
    fs.symlinkSync(h.outside, path.join(h.ws, 'outdir'))
    fs.symlinkSync(path.join(h.outside, 'file.ts'), path.join(h.ws, 'outfile.ts'))
    fs.symlinkSync(path.join(h.ws, 'real', 'inside.ts'), path.join(h.ws, 'alias.ts'))
    const r = await h.call('search_files', { text: 'TODO' })
    expect(r.text).not.toContain('outside')
    expect(r.text.split('\n')).toEqual(['alias.ts:1: TODO inside', 'real/inside.ts:1: TODO inside'])
    const g = await h.call('search_files', { pattern: '**/*.ts' })
    expect(g.text.split('\n')).toEqual(['alias.ts', 'real/inside.ts'])
  })
})
