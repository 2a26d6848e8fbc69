/**
 * Issue 25, case 12: Cairn's lock files are private from the start (mode 600, whatever the
 * umask), like everything else it keeps in the data directory, and the data directory's check
 * at start does not warn about them: a start that overlaps another one (browser mode and the
 * CLI, scripts) prints no false security warning about `settings.json.lock`. POSIX only.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { withFileLock, withFileLockSync } from '../../src-main/adapters/settings/file-lock'
import { openAppServices } from '../../src-main/services/host/app-services'
import { useTempDirs } from '../settings/temp-dirs'

const tempDir = useTempDirs()
const holder = path.join(import.meta.dirname, 'lock-holder.ts')
const mode = (p: string): number => fs.statSync(p).mode & 0o777

describe.runIf(process.platform !== 'win32')("Cairn's lock files", () => {
  it('are made 600 whatever the umask, by the waiting and the synchronous lock alike', async () => {
    const old = process.umask(0o022)
    try {
      const dir = tempDir()
      const lock = path.join(dir, 'settings.json.lock')
      await withFileLock(lock, async () => expect(mode(lock)).toBe(0o600))
      withFileLockSync(lock, () => expect(mode(lock)).toBe(0o600))
    } finally {
      process.umask(old)
    }
  })

  it('a start while another process holds the settings lock warns of nothing', async () => {
    const old = process.umask(0o022)
    try {
      const dir = path.join(tempDir(), 'data')
      openAppServices(dir).close()
      // the other process (it inherits the umask): it holds the lock while this one starts
      const holder = await holdLock(path.join(dir, 'settings.json.lock'), 1_000)
      const warnings: string[] = []
      openAppServices(dir, { onWarning: (w) => warnings.push(w) }).close()
      expect(await holder.exited).toBe(0)
      expect(warnings).toEqual([])
    } finally {
      process.umask(old)
    }
  })

  it('a lock an older Cairn left readable is made private without a warning', () => {
    const dir = path.join(tempDir(), 'data')
    openAppServices(dir).close()
    // a lock this start does not take, so it is still there to look at afterwards
    const left = path.join(dir, 'mcp-processes.json.lock')
    fs.writeFileSync(left, '{}')
    fs.chmodSync(left, 0o644)
    const warnings: string[] = []
    openAppServices(dir, { onWarning: (w) => warnings.push(w) }).close()
    expect(warnings).toEqual([])
    expect(mode(left)).toBe(0o600)
  })

  it('a readable file of ours that is not a lock is still narrowed with a warning', () => {
    const dir = path.join(tempDir(), 'data')
    openAppServices(dir).close()
    fs.chmodSync(path.join(dir, 'settings.json'), 0o644)
    const warnings: string[] = []
    openAppServices(dir, { onWarning: (w) => warnings.push(w) }).close()
    expect(warnings).toHaveLength(1)
    expect(warnings[0]).toContain('settings.json')
    expect(mode(path.join(dir, 'settings.json'))).toBe(0o600)
  })
})

/** Starts another process that holds `lockPath` for `ms`; resolves once it holds it. */
async function holdLock(lockPath: string, ms: number): Promise<{ exited: Promise<number | null> }> {
  const child = spawn(process.execPath, ['--import', 'tsx', holder, lockPath, String(ms)], {
    cwd: process.cwd(),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise<number | null>((resolve, reject) => {
    child.on('error', reject)
    child.on('exit', (code) => resolve(code))
  })
  await new Promise<void>((resolve, reject) => {
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('held')) resolve()
    })
    void exited.then((code) => reject(new Error(`the lock holder exited (${code}) first`)))
  })
  return { exited }
}
