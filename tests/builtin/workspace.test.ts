/** Workspace confinement: no file tool may reach outside the session's workspace. */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { defaultWorkspace } from '../../src-main/adapters/builtin-tools'
import {
  isInside,
  openWorkspace,
  resolveInWorkspace,
} from '../../src-main/adapters/builtin-tools/workspace'
import { harness, posix, tempDir } from './harness'

describe('workspace confinement', () => {
  it('creates the workspace folder on first use', async () => {
    const h = harness()
    expect(fs.existsSync(h.ws)).toBe(false)
    const r = await h.call('list_directory', {})
    expect(r.isError).toBe(false)
    expect(fs.statSync(h.ws).isDirectory()).toBe(true)
  })

  it('resolves the workspace per call', async () => {
    const a = tempDir()
    const b = tempDir()
    fs.writeFileSync(path.join(a, 'which.txt'), 'A')
    fs.writeFileSync(path.join(b, 'which.txt'), 'B')
    let current = a
    const h = harness({ workspace: () => current })
    expect((await h.call('read_file', { path: 'which.txt' })).text).toBe('A')
    current = b
    expect((await h.call('read_file', { path: 'which.txt' })).text).toBe('B')
  })

  it('refuses ../ escapes, naming the path and the workspace', async () => {
    const h = harness()
    fs.writeFileSync(path.join(h.outside, 'secret.txt'), 'top secret')
    const r = await h.call('read_file', { path: '../outside/secret.txt' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('"../outside/secret.txt"')
    expect(r.text).toContain('outside the workspace')
    expect(r.text).toContain(h.ws)
    expect(r.text).not.toContain('top secret')
  })

  it('refuses /etc/passwd and any absolute path outside', async () => {
    const h = harness()
    fs.writeFileSync(path.join(h.outside, 'x.txt'), 'x')
    for (const p of ['/etc/passwd', path.join(h.outside, 'x.txt'), h.outside]) {
      const r = await h.call('read_file', { path: p })
      expect(r.isError, p).toBe(true)
      expect(r.text, p).toContain('outside the workspace')
    }
    const w = await h.call('write_file', { path: path.join(h.outside, 'new.txt'), content: 'no' })
    expect(w.isError).toBe(true)
    expect(fs.existsSync(path.join(h.outside, 'new.txt'))).toBe(false)
  })

  it('accepts an absolute path inside and a .. path that stays inside', async () => {
    const h = harness()
    h.put('docs/a.txt', 'alpha')
    expect((await h.call('read_file', { path: path.join(h.ws, 'docs', 'a.txt') })).text).toBe(
      'alpha',
    )
    expect((await h.call('read_file', { path: 'docs/../docs/./a.txt' })).text).toBe('alpha')
    const w = await h.call('write_file', { path: 'docs/sub/../b.txt', content: 'beta' })
    expect(w.isError).toBe(false)
    expect(h.read('docs/b.txt')).toBe('beta')
  })

  it('does not take a sibling folder with the same prefix for the workspace', async () => {
    const h = harness()
    const sibling = `${h.ws}-other`
    fs.mkdirSync(sibling)
    fs.writeFileSync(path.join(sibling, 'f.txt'), 'sibling')
    await h.call('list_directory', {})
    const r = await h.call('read_file', { path: path.join(sibling, 'f.txt') })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('outside the workspace')
    const rel = await h.call('read_file', { path: `../${path.basename(sibling)}/f.txt` })
    expect(rel.isError).toBe(true)
  })

  it.runIf(posix)('refuses a symbolic link to a file outside', async () => {
    const h = harness()
    fs.writeFileSync(path.join(h.outside, 'secret.txt'), 'top secret')
    fs.mkdirSync(h.ws)
    fs.symlinkSync(path.join(h.outside, 'secret.txt'), path.join(h.ws, 'link.txt'))
    const r = await h.call('read_file', { path: 'link.txt' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('symbolic link')
    expect(r.text).not.toContain('top secret')
    const e = await h.call('edit_file', { path: 'link.txt', old_string: 'top', new_string: 'no' })
    expect(e.isError).toBe(true)
    const w = await h.call('write_file', { path: 'link.txt', content: 'overwritten' })
    expect(w.isError).toBe(true)
    expect(fs.readFileSync(path.join(h.outside, 'secret.txt'), 'utf8')).toBe('top secret')
  })

  it.runIf(posix)('refuses a symbolic link to a folder outside, at any depth', async () => {
    const h = harness()
    fs.mkdirSync(path.join(h.outside, 'deep'), { recursive: true })
    fs.writeFileSync(path.join(h.outside, 'deep', 'secret.txt'), 'top secret')
    h.put('a/b/keep.txt', 'ok')
    fs.symlinkSync(h.outside, path.join(h.ws, 'a', 'b', 'out'))
    for (const p of ['a/b/out/deep/secret.txt', 'a/b/out', 'a/b/out/deep']) {
      const r = await h.call('read_file', { path: p })
      expect(r.isError, p).toBe(true)
      expect(r.text, p).toContain('outside the workspace')
      expect(r.text, p).not.toContain('top secret')
      const l = await h.call('list_directory', { path: p })
      expect(l.isError, p).toBe(true)
      expect(l.text, p).not.toMatch(/^(deep\/|secret\.txt)$/m)
    }
  })

  it.runIf(posix)('refuses a write through a symbolic link to a folder outside', async () => {
    const h = harness()
    fs.mkdirSync(h.ws)
    fs.symlinkSync(h.outside, path.join(h.ws, 'out'))
    for (const p of ['out/new.txt', 'out/new/deeper/file.txt']) {
      const r = await h.call('write_file', { path: p, content: 'escaped' })
      expect(r.isError, p).toBe(true)
      expect(r.text, p).toContain('outside the workspace')
    }
    expect(fs.readdirSync(h.outside)).toEqual([])
  })

  it.runIf(posix)('refuses a write through a dangling symbolic link pointing outside', async () => {
    const h = harness()
    fs.mkdirSync(h.ws)
    const target = path.join(h.outside, 'created-by-link.txt')
    fs.symlinkSync(target, path.join(h.ws, 'dangling.txt'))
    fs.symlinkSync(path.join(h.outside, 'nodir'), path.join(h.ws, 'danglingdir'))
    const r = await h.call('write_file', { path: 'dangling.txt', content: 'escaped' })
    expect(r.isError).toBe(true)
    expect(fs.existsSync(target)).toBe(false)
    const d = await h.call('write_file', { path: 'danglingdir/x.txt', content: 'escaped' })
    expect(d.isError).toBe(true)
    expect(fs.existsSync(path.join(h.outside, 'nodir'))).toBe(false)
  })

  it.runIf(posix)('follows symbolic links that stay inside', async () => {
    const h = harness()
    h.put('real/file.txt', 'inside')
    fs.symlinkSync(path.join(h.ws, 'real'), path.join(h.ws, 'alias'))
    fs.symlinkSync('real/file.txt', path.join(h.ws, 'rel-link.txt'))
    expect((await h.call('read_file', { path: 'alias/file.txt' })).text).toBe('inside')
    expect((await h.call('read_file', { path: 'rel-link.txt' })).text).toBe('inside')
    // a dangling link to a place inside: the write lands there
    fs.symlinkSync(path.join(h.ws, 'real', 'later.txt'), path.join(h.ws, 'later-link.txt'))
    const w = await h.call('write_file', { path: 'later-link.txt', content: 'via link' })
    expect(w.isError).toBe(false)
    expect(h.read('real/later.txt')).toBe('via link')
  })

  it.runIf(posix)('accepts a workspace that is itself behind a symbolic link', async () => {
    const base = tempDir()
    fs.mkdirSync(path.join(base, 'real-ws'))
    fs.symlinkSync(path.join(base, 'real-ws'), path.join(base, 'ws-link'))
    fs.writeFileSync(path.join(base, 'real-ws', 'f.txt'), 'hello')
    const h = harness({ workspace: () => path.join(base, 'ws-link') })
    expect((await h.call('read_file', { path: 'f.txt' })).text).toBe('hello')
    expect((await h.call('read_file', { path: path.join(base, 'ws-link', 'f.txt') })).text).toBe(
      'hello',
    )
  })

  it('compares with a trailing separator, ignoring case only on case-insensitive file systems', () => {
    const sensitive = { root: '/home/u/Cairn', caseInsensitive: false }
    expect(isInside(sensitive, '/home/u/Cairn')).toBe(true)
    expect(isInside(sensitive, '/home/u/Cairn/a/b')).toBe(true)
    expect(isInside(sensitive, '/home/u/Cairn-other/a')).toBe(false)
    expect(isInside(sensitive, '/home/u/CairnX')).toBe(false)
    expect(isInside(sensitive, '/home/u/cairn/a')).toBe(false)
    expect(isInside(sensitive, '/home/u')).toBe(false)
    const insensitive = { root: '/Users/u/Cairn', caseInsensitive: true }
    expect(isInside(insensitive, '/users/U/CAIRN/notes.md')).toBe(true)
    expect(isInside(insensitive, '/Users/u/cairn-other/notes.md')).toBe(false)
    expect(isInside({ root: '/', caseInsensitive: false }, '/etc/passwd')).toBe(true)
  })

  it.runIf(process.platform === 'linux')(
    'detects that a Linux temp folder is case-sensitive',
    async () => {
      const dir = tempDir()
      const ws = await openWorkspace(path.join(dir, 'Work'))
      expect(ws.caseInsensitive).toBe(false)
      // the same letters in another case are another folder here: refused
      fs.mkdirSync(path.join(dir, 'work'))
      await expect(resolveInWorkspace(ws, path.join(dir, 'work', 'x'))).rejects.toThrow(
        /outside the workspace/,
      )
    },
  )

  it('refuses paths with a NUL character', async () => {
    const h = harness()
    const r = await h.call('read_file', { path: 'a\0b' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('NUL')
  })

  it('defaults the workspace to ~/Cairn', () => {
    expect(defaultWorkspace('/home/someone')).toBe(path.join('/home/someone', 'Cairn'))
  })
})
