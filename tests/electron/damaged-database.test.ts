/**
 * A damaged database when the desktop app starts: a native dialog offers to move it aside
 * and start a new one, or to quit; nothing happens to the file without that choice. Uses a
 * real damaged file and the real host on the second try.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { StorageError } from '../../src-main/adapters/sqlite/open-errors'
import { openWithRecovery, QuitChosen } from '../../src-main/electron/damaged-database'
import { runApp } from '../../src-main/electron/main'
import {
  createAppHost,
  type AppHost,
  type AppHostOptions,
} from '../../src-main/services/host/app-host'
import { harness, useAppHarness } from './app-harness'
import { app, dialog } from './electron-mock'

vi.mock('electron', () => import('./electron-mock'))
useAppHarness()

const GARBAGE = 'this is not a SQLite database, it was damaged on purpose\n'.repeat(200)

/** a data directory whose cairn.db is not a database */
function damaged(): string {
  mkdirSync(harness.dataDir, { recursive: true })
  writeFileSync(join(harness.dataDir, 'cairn.db'), GARBAGE)
  return harness.dataDir
}

let opened: AppHost[] = []

/** the real host on the harness's data directory (without the fake Electron-built binary) */
async function startWith(response: number): Promise<void> {
  opened = []
  dialog.showMessageBox.mockResolvedValueOnce({ response } as never)
  await runApp({
    createHost: async (o: AppHostOptions) => {
      const { nativeBinding: _unused, ...rest } = o
      const h = await createAppHost(rest)
      opened.push(h)
      return h
    },
    env: { CAIRN_DATA_DIR: harness.dataDir },
    argv: [],
  })
}

describe('the desktop app meets a damaged database', () => {
  it('Quit leaves the file exactly as it was and exits without a second error', async () => {
    const dir = damaged()
    await startWith(1)
    const [options] = dialog.showMessageBox.mock.calls[0] as unknown as [
      { buttons: string[]; detail: string },
    ]
    expect(options.buttons).toEqual(['Start a new database', 'Quit'])
    expect(options.detail).toContain(join(dir, 'cairn.db'))
    expect(readFileSync(join(dir, 'cairn.db'), 'utf8')).toBe(GARBAGE)
    expect(readdirSync(dir).some((f) => f.includes('damaged'))).toBe(false)
    expect(dialog.showErrorBox).not.toHaveBeenCalled()
    expect(app.exit).toHaveBeenCalledWith(1)
  })

  it('"Start a new database" moves it aside, keeps it, and opens a working one', async () => {
    const dir = damaged()
    await startWith(0)
    const aside = readdirSync(dir).find(
      (f) => f.startsWith('cairn.db.damaged-') && !/-(wal|shm)$/.test(f),
    )
    expect(aside).toBeTruthy()
    expect(readFileSync(join(dir, aside!), 'utf8')).toBe(GARBAGE)
    expect(existsSync(join(dir, 'cairn.db'))).toBe(true)
    expect(app.exit).not.toHaveBeenCalled()
    const host = opened.at(-1)!
    const r = await host.router.handle('sessions.list', {})
    expect(r).toMatchObject({ ok: true, data: { sessions: [] } })
    await host.shutdown()
  })
})

describe('openWithRecovery', () => {
  it('asks only for a damaged database; other errors pass through unasked', async () => {
    const ask = vi.fn(async () => ({ response: 0 }))
    const setAside = vi.fn(() => '/x/cairn.db.damaged-1')
    const locked = new StorageError('data_dir_not_writable', 'cannot write', '/x')
    await expect(
      openWithRecovery(() => Promise.reject(locked), {
        dataDir: '/x',
        ask,
        warn: () => {},
        setAside,
      }),
    ).rejects.toBe(locked)
    await expect(
      openWithRecovery(() => Promise.reject(new Error('other')), {
        dataDir: '/x',
        ask,
        warn: () => {},
        setAside,
      }),
    ).rejects.toThrow('other')
    expect(ask).not.toHaveBeenCalled()
    expect(setAside).not.toHaveBeenCalled()
  })

  it('Quit is QuitChosen and sets nothing aside', async () => {
    const setAside = vi.fn(() => '')
    const bad = new StorageError('database_damaged', 'damaged', '/x/cairn.db')
    await expect(
      openWithRecovery(() => Promise.reject(bad), {
        dataDir: '/x',
        ask: async () => ({ response: 1 }),
        warn: () => {},
        setAside,
      }),
    ).rejects.toBeInstanceOf(QuitChosen)
    expect(setAside).not.toHaveBeenCalled()
  })
})
