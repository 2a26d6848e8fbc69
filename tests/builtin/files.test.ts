/** read_file, list_directory, write_file and edit_file on real files. */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { harness, posix } from './harness'

describe('read_file', () => {
  it('returns the text of a file', async () => {
    const h = harness()
    h.put('notes.md', '# Notes\nline two\n')
    const r = await h.call('read_file', { path: 'notes.md' })
    expect(r).toMatchObject({ isError: false, text: '# Notes\nline two\n' })
  })

  it('reads a part by lines and says how to read on', async () => {
    const h = harness()
    h.put('lines.txt', Array.from({ length: 50 }, (_, i) => `line ${i + 1}`).join('\n'))
    const r = await h.call('read_file', { path: 'lines.txt', offset: 10, limit: 3 })
    expect(r.isError).toBe(false)
    expect(r.text).toContain(
      '[lines 10-12 of 50 in lines.txt; to read on, call read_file with offset 13]',
    )
    expect(r.text.split('\n').slice(1)).toEqual(['line 10', 'line 11', 'line 12'])
    const past = await h.call('read_file', { path: 'lines.txt', offset: 51 })
    expect(past.isError).toBe(true)
    expect(past.text).toContain('has 50 lines')
  })

  it('returns long files in parts of 2000 lines', async () => {
    const h = harness()
    h.put('long.txt', Array.from({ length: 2500 }, (_, i) => `row ${i + 1}`).join('\n'))
    const r = await h.call('read_file', { path: 'long.txt' })
    expect(r.text.split('\n')[0]).toBe(
      '[lines 1-2000 of 2500 in long.txt; to read on, call read_file with offset 2001]',
    )
    expect(r.text).toContain('row 2000')
    expect(r.text).not.toContain('row 2001')
  })

  it('refuses binary files', async () => {
    const h = harness()
    h.put('image.bin', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02]))
    const r = await h.call('read_file', { path: 'image.bin' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('binary file')
  })

  it('refuses files above the size limit unless a part is asked for', async () => {
    const h = harness({ limits: { maxFileBytes: 1000 } })
    h.put('big.log', Array.from({ length: 400 }, (_, i) => `entry ${i + 1}`).join('\n'))
    const r = await h.call('read_file', { path: 'big.log' })
    expect(r.isError).toBe(true)
    expect(r.text).toMatch(/above read_file's limit of 1000 bytes/)
    expect(r.text).toContain('offset and limit')
    const part = await h.call('read_file', { path: 'big.log', offset: 100, limit: 2 })
    expect(part.isError).toBe(false)
    expect(part.text.split('\n').slice(1)).toEqual(['entry 100', 'entry 101'])
    expect(part.text).toContain('call read_file with offset 102')
    const end = await h.call('read_file', { path: 'big.log', offset: 399, limit: 10 })
    expect(end.text.split('\n').slice(1)).toEqual(['entry 399', 'entry 400'])
    expect(end.text).toContain('the end of the file')
  })

  it('says when the file does not exist or is a folder', async () => {
    const h = harness()
    h.put('dir/x.txt', 'x')
    const missing = await h.call('read_file', { path: 'nope.txt' })
    expect(missing.isError).toBe(true)
    expect(missing.text).toContain('does not exist')
    const dir = await h.call('read_file', { path: 'dir' })
    expect(dir.isError).toBe(true)
    expect(dir.text).toContain('list_directory')
  })
})

describe('list_directory', () => {
  it('lists entries sorted, folders with a trailing slash', async () => {
    const h = harness()
    h.put('b.txt', 'b')
    h.put('A.md', 'a')
    h.put('sub/inner.txt', 'i')
    h.put('sub/deeper/x', 'x')
    const r = await h.call('list_directory', {})
    expect(r.isError).toBe(false)
    expect(r.text.split('\n').slice(1)).toEqual(['A.md', 'b.txt', 'sub/'])
    const sub = await h.call('list_directory', { path: 'sub' })
    expect(sub.text.split('\n')).toEqual(['sub/: 2 entries', 'deeper/', 'inner.txt'])
  })

  it('caps the listing at 1000 entries and says so', async () => {
    const h = harness()
    fs.mkdirSync(path.join(h.ws, 'many'), { recursive: true })
    for (let i = 0; i < 1005; i++)
      fs.writeFileSync(path.join(h.ws, 'many', `f${String(i).padStart(4, '0')}`), '')
    const r = await h.call('list_directory', { path: 'many' })
    const lines = r.text.split('\n')
    expect(lines[0]).toBe('many/: 1005 entries')
    expect(lines).toContain('f0999')
    expect(lines).not.toContain('f1000')
    expect(lines.at(-1)).toContain('5 more entries not shown')
  })

  it.runIf(posix)('marks symbolic links that lead outside and does not follow them', async () => {
    const h = harness()
    fs.writeFileSync(path.join(h.outside, 'secret.txt'), 's')
    h.put('inside/file.txt', 'f')
    fs.symlinkSync(h.outside, path.join(h.ws, 'out'))
    fs.symlinkSync(path.join(h.ws, 'inside'), path.join(h.ws, 'alias'))
    fs.symlinkSync(path.join(h.ws, 'gone'), path.join(h.ws, 'broken'))
    const r = await h.call('list_directory', {})
    expect(r.text).toContain('out@ (symbolic link to outside the workspace, not followed)')
    expect(r.text).toContain('\nalias/')
    expect(r.text).toContain('broken@ (broken symbolic link)')
    expect(r.text).not.toContain('secret.txt')
  })

  it('says when the path is a file', async () => {
    const h = harness()
    h.put('f.txt', 'x')
    const r = await h.call('list_directory', { path: 'f.txt' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('read_file')
  })
})

describe('write_file', () => {
  it('creates parent folders and says it created the file', async () => {
    const h = harness()
    const r = await h.call('write_file', { path: 'a/b/c.txt', content: 'héllo' })
    expect(r.isError).toBe(false)
    expect(r.text).toBe('Created a/b/c.txt (6 bytes written).')
    expect(h.read('a/b/c.txt')).toBe('héllo')
  })

  it('says it replaced an existing file', async () => {
    const h = harness()
    h.put('f.txt', 'old content')
    const r = await h.call('write_file', { path: 'f.txt', content: 'new' })
    expect(r.text).toBe('Replaced f.txt (3 bytes written; it had 11 bytes before).')
    expect(h.read('f.txt')).toBe('new')
  })

  it('refuses to write over a folder', async () => {
    const h = harness()
    h.put('d/x', 'x')
    const r = await h.call('write_file', { path: 'd', content: 'no' })
    expect(r.isError).toBe(true)
    expect(fs.statSync(path.join(h.ws, 'd')).isDirectory()).toBe(true)
  })
})

describe('edit_file', () => {
  it('replaces a unique string', async () => {
    const h = harness()
    h.put('notes.md', 'one\ntwo\nthree\n')
    const r = await h.call('edit_file', {
      path: 'notes.md',
      old_string: 'two',
      new_string: '2 ($&)',
    })
    expect(r.isError).toBe(false)
    expect(r.text).toContain('at line 2')
    expect(h.read('notes.md')).toBe('one\n2 ($&)\nthree\n')
  })

  it('refuses a string that is not found, leaving the file unchanged', async () => {
    const h = harness()
    h.put('notes.md', 'alpha beta\n')
    const r = await h.call('edit_file', { path: 'notes.md', old_string: 'gamma', new_string: 'x' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('old_string was not found in notes.md')
    expect(r.text).toContain('read_file')
    expect(h.read('notes.md')).toBe('alpha beta\n')
  })

  it('refuses a string found more than once, naming the count and lines', async () => {
    const h = harness()
    h.put('notes.md', 'todo\nx\ntodo\ny\ntodo\n')
    const r = await h.call('edit_file', {
      path: 'notes.md',
      old_string: 'todo',
      new_string: 'done',
    })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('old_string was found 3 times in notes.md (lines 1, 3, 5)')
    expect(r.text).toContain('Add surrounding lines')
    expect(h.read('notes.md')).toBe('todo\nx\ntodo\ny\ntodo\n')
  })

  it('replaces every occurrence with replace_all', async () => {
    const h = harness()
    h.put('notes.md', 'todo\nx\ntodo\n')
    const r = await h.call('edit_file', {
      path: 'notes.md',
      old_string: 'todo',
      new_string: 'done',
      replace_all: true,
    })
    expect(r.isError).toBe(false)
    expect(r.text).toContain('2 occurrences')
    expect(h.read('notes.md')).toBe('done\nx\ndone\n')
  })

  it('refuses old_string equal to new_string, and an empty old_string', async () => {
    const h = harness()
    h.put('notes.md', 'same\n')
    const same = await h.call('edit_file', {
      path: 'notes.md',
      old_string: 'same',
      new_string: 'same',
    })
    expect(same.isError).toBe(true)
    expect(same.text).toContain('the same')
    const empty = await h.call('edit_file', { path: 'notes.md', old_string: '', new_string: 'x' })
    expect(empty.isError).toBe(true)
    expect(h.read('notes.md')).toBe('same\n')
  })

  it('matches plain line breaks in a file with Windows line endings', async () => {
    const h = harness()
    h.put('win.txt', 'a\r\nb\r\nc\r\n')
    const r = await h.call('edit_file', { path: 'win.txt', old_string: 'a\nb', new_string: 'A\nB' })
    expect(r.isError).toBe(false)
    expect(h.read('win.txt')).toBe('A\r\nB\r\nc\r\n')
  })

  it('refuses a file that does not exist', async () => {
    const h = harness()
    const r = await h.call('edit_file', { path: 'missing.md', old_string: 'a', new_string: 'b' })
    expect(r.isError).toBe(true)
    expect(r.text).toContain('does not exist')
    expect(fs.existsSync(path.join(h.ws, 'missing.md'))).toBe(false)
  })
})
