/**
 * The desktop app on a database damaged after it opened: the route that meets the damage
 * answers database_damaged, and "Start a new database" from the window asks in a native
 * dialog (the page cannot answer it) before anything is moved.
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { runApp } from '../../src-main/electron/main'
import {
  createAppHost,
  type AppHost,
  type AppHostOptions,
} from '../../src-main/services/host/app-host'
import { damagePages, rawQueryError } from '../storage/late-damage'
import { harness, useAppHarness } from './app-harness'
import { dialog } from './electron-mock'

vi.mock('electron', () => import('./electron-mock'))
useAppHarness()

const asides = (dir: string): string[] =>
  readdirSync(dir).filter((f) => f.startsWith('cairn.db.damaged-') && !/-(wal|shm)$/.test(f))

describe('the desktop app meets damage after the database opened', () => {
  it('answers database_damaged, and moves the file aside only after its own dialog says yes', async () => {
    const store = createSessionStore(harness.dataDir)
    const id = store.createSession({ title: 'x' }).id
    for (let i = 0; i < 20; i++)
      store.appendMessage(id, { role: 'user', content: `m${i} `.repeat(80) })
    store.close()
    const file = join(harness.dataDir, 'cairn.db')
    damagePages(file, 'messages')
    expect(rawQueryError(file, 'SELECT content FROM messages')).toMatch(/^SQLITE_CORRUPT/)

    let host: AppHost | null = null
    await runApp({
      createHost: async (o: AppHostOptions) => {
        const { nativeBinding: _unused, ...rest } = o
        host = await createAppHost(rest)
        return host
      },
      env: { CAIRN_DATA_DIR: harness.dataDir },
      argv: [],
    })
    const router = host!.router
    const got = await router.handle('sessions.get', { id })
    expect(got).toMatchObject({ ok: false, error: { code: 'database_damaged' } })
    expect(dialog.showMessageBox).not.toHaveBeenCalled()

    dialog.showMessageBox.mockResolvedValueOnce({ response: 1 } as never)
    expect(await router.handle('app.replaceDamagedDatabase', {})).toEqual({
      ok: true,
      data: { movedTo: null },
    })
    const options = (dialog.showMessageBox.mock.calls[0] as unknown[]).at(-1) as {
      buttons: string[]
      detail: string
    }
    expect(options.buttons).toEqual(['Start a new database', 'Keep it for now'])
    expect(options.detail).toMatch(/part of it is damaged/)
    expect(asides(harness.dataDir)).toEqual([])

    dialog.showMessageBox.mockResolvedValueOnce({ response: 0 } as never)
    const moved = await router.handle('app.replaceDamagedDatabase', {})
    expect(moved).toMatchObject({ ok: true })
    expect(asides(harness.dataDir)).toHaveLength(1)
    expect(await router.handle('sessions.list', {})).toMatchObject({
      ok: true,
      data: { sessions: [] },
    })
    await host!.shutdown()
  })
})
