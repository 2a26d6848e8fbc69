/** The one atomic writer: sync and async, flushed file and directory, private by default. */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import {
  copyAside,
  publishExclusive,
  writeFileAtomic,
  writeFileAtomicSync,
  writeTempFile,
} from '../../src-main/adapters/atomic-file'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-atomic-'))
})
afterEach(() => {
  vi.restoreAllMocks()
  fs.rmSync(dir, { recursive: true, force: true })
})

const posix = process.platform !== 'win32'
const modeOf = (p: string) => fs.statSync(p).mode & 0o777

/** Records the paths whose descriptors were flushed, by the sync and the async API. */
function recordFlushes(): string[] {
  const flushed: string[] = []
  const fdPaths = new Map<number, string>()
  const openSync = fs.openSync.bind(fs)
  vi.spyOn(fs, 'openSync').mockImplementation(
    (p: fs.PathLike, flags: fs.OpenMode = 'r', mode?: fs.Mode | null) => {
      const fd = openSync(p, flags, mode)
      fdPaths.set(fd, String(p))
      return fd
    },
  )
  const fsyncSync = fs.fsyncSync.bind(fs)
  vi.spyOn(fs, 'fsyncSync').mockImplementation((fd: number) => {
    flushed.push(fdPaths.get(fd) ?? `fd ${fd}`)
    fsyncSync(fd)
  })
  const open = fs.promises.open.bind(fs.promises)
  vi.spyOn(fs.promises, 'open').mockImplementation(async (p, ...rest) => {
    const handle = await open(p, ...rest)
    const sync = handle.sync.bind(handle)
    handle.sync = async () => {
      flushed.push(String(p))
      await sync()
    }
    return handle
  })
  return flushed
}

const variants = {
  sync: async (target: string, data: string, mode?: number) =>
    writeFileAtomicSync(target, data, mode === undefined ? {} : { mode }),
  async: (target: string, data: string, mode?: number) =>
    writeFileAtomic(target, data, mode === undefined ? {} : { mode }),
}

for (const [name, write] of Object.entries(variants)) {
  describe(`writeFileAtomic (${name})`, () => {
    it('replaces the file with a new one and leaves no temp file', async () => {
      const target = path.join(dir, 'settings.json')
      fs.writeFileSync(target, 'old')
      const before = fs.statSync(target).ino
      await write(target, 'new content é')
      expect(fs.readFileSync(target, 'utf8')).toBe('new content é')
      expect(fs.statSync(target).ino).not.toBe(before)
      expect(fs.readdirSync(dir)).toEqual(['settings.json'])
    })

    it.runIf(posix)('is private (600) unless a mode is given', async () => {
      const secret = path.join(dir, 'secret')
      const shared = path.join(dir, 'shared')
      await write(secret, 'k')
      await write(shared, 's', 0o640)
      expect(modeOf(secret)).toBe(0o600)
      expect(modeOf(shared)).toBe(0o640)
    })

    it.runIf(posix)('flushes the file, then the directory that holds the new name', async () => {
      const flushed = recordFlushes()
      const target = path.join(dir, 'token')
      await write(target, 'x')
      expect(flushed).toHaveLength(2)
      expect(path.basename(flushed[0] ?? '')).toMatch(/^\.token\.\d+\.[0-9a-f]{8}\.tmp$/)
      expect(flushed[1]).toBe(dir)
    })

    it('removes its temp file when the rename fails, and says why', async () => {
      const target = path.join(dir, 'taken')
      fs.mkdirSync(target)
      fs.writeFileSync(path.join(target, 'inside'), '')
      await expect(write(target, 'x')).rejects.toThrow()
      expect(fs.readdirSync(dir)).toEqual(['taken'])
    })
  })
}

describe('publishExclusive', () => {
  it('names a flushed temp file only if the name is free', async () => {
    const flushed = recordFlushes()
    const target = path.join(dir, '0001-request.json')
    const first = await writeTempFile(target, 'one')
    expect(flushed).toEqual([first])
    expect(await publishExclusive(first, target, 'one')).toBe('ok')
    const second = await writeTempFile(target, 'two')
    expect(await publishExclusive(second, target, 'two')).toBe('exists')
    expect(fs.readFileSync(target, 'utf8')).toBe('one')
    if (posix) expect(flushed).toContain(dir)
  })
})

describe('copyAside', () => {
  it('keeps every copy: a second one on the same instant gets its own name', () => {
    const source = path.join(dir, 'settings.json')
    fs.writeFileSync(source, 'broken')
    vi.useFakeTimers({ now: new Date('2026-01-01T00:00:00Z'), toFake: ['Date'] })
    try {
      const a = copyAside(source, 'broken')
      const b = copyAside(source, 'broken')
      expect(a).not.toBe(b)
      expect(fs.readFileSync(b, 'utf8')).toBe('broken')
    } finally {
      vi.useRealTimers()
    }
  })
})
