import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import { hostname } from 'node:os'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  FileLockTimeoutError,
  withFileLock,
  withFileLockSync,
} from '../../src-main/adapters/settings/file-lock'
import { useTempDirs } from './temp-dirs'

const tempDir = useTempDirs()

function writeLock(file: string, info: { pid: number; time: number; token?: string }): void {
  fs.writeFileSync(file, JSON.stringify({ host: hostname(), token: 'theirs', ...info }))
}

/** a pid that belonged to a process that has exited */
function deadPid(): number {
  const r = spawnSync(process.execPath, ['-e', ''])
  return r.pid ?? 999_999
}

describe('file lock', () => {
  it('holds the lock file (pid + time) during the call and removes it after', () => {
    const lock = path.join(tempDir(), 'x.lock')
    const seen = withFileLockSync(lock, () => JSON.parse(fs.readFileSync(lock, 'utf8')) as unknown)
    expect(seen).toMatchObject({ pid: process.pid, host: hostname() })
    expect((seen as { time: number }).time).toBeGreaterThan(Date.now() - 5_000)
    expect(fs.existsSync(lock)).toBe(false)
  })

  it('releases the lock when the callback throws', () => {
    const lock = path.join(tempDir(), 'x.lock')
    expect(() =>
      withFileLockSync(lock, () => {
        throw new Error('boom')
      }),
    ).toThrow('boom')
    expect(fs.existsSync(lock)).toBe(false)
  })

  it('takes over a lock whose owner is dead', () => {
    const lock = path.join(tempDir(), 'x.lock')
    writeLock(lock, { pid: deadPid(), time: Date.now() })
    expect(withFileLockSync(lock, () => 'ran', { timeoutMs: 2_000 })).toBe('ran')
  })

  it('takes over a lock older than staleMs, even of a live process', () => {
    const lock = path.join(tempDir(), 'x.lock')
    writeLock(lock, { pid: process.ppid, time: Date.now() - 60_000 })
    expect(withFileLockSync(lock, () => 'ran', { timeoutMs: 2_000 })).toBe('ran')
  })

  it('waits (bounded) for a live owner, then fails with a clear error', () => {
    const lock = path.join(tempDir(), 'x.lock')
    writeLock(lock, { pid: process.ppid, time: Date.now() })
    const started = Date.now()
    let error: unknown
    try {
      withFileLockSync(lock, () => 'ran', { timeoutMs: 150 })
    } catch (e) {
      error = e
    }
    expect(Date.now() - started).toBeGreaterThanOrEqual(140)
    expect(error).toBeInstanceOf(FileLockTimeoutError)
    expect((error as Error).message).toContain(lock)
    expect((error as Error).message).toContain(`pid ${process.ppid}`)
    expect(fs.existsSync(lock)).toBe(true)
  })

  it('gets the lock as soon as the owner releases it', async () => {
    const lock = path.join(tempDir(), 'x.lock')
    writeLock(lock, { pid: process.ppid, time: Date.now() })
    setTimeout(() => fs.unlinkSync(lock), 100)
    await expect(withFileLock(lock, async () => 'ran', { timeoutMs: 3_000 })).resolves.toBe('ran')
  })

  it('serializes async holders in one process', async () => {
    const lock = path.join(tempDir(), 'x.lock')
    let inside = 0
    let most = 0
    await Promise.all(
      Array.from({ length: 5 }, () =>
        withFileLock(lock, async () => {
          most = Math.max(most, ++inside)
          await new Promise((r) => setTimeout(r, 10))
          inside--
        }),
      ),
    )
    expect(most).toBe(1)
  })

  it('refuses a synchronous re-entry instead of waiting on itself', () => {
    const lock = path.join(tempDir(), 'x.lock')
    expect(() => withFileLockSync(lock, () => withFileLockSync(lock, () => 1))).toThrow(
      /already held by this process/,
    )
    expect(fs.existsSync(lock)).toBe(false)
  })

  it('does not remove a lock that another process took over meanwhile', () => {
    const lock = path.join(tempDir(), 'x.lock')
    withFileLockSync(lock, () => writeLock(lock, { pid: process.ppid, time: Date.now() }))
    expect(JSON.parse(fs.readFileSync(lock, 'utf8'))).toMatchObject({ token: 'theirs' })
  })
})
