/**
 * The desktop app's wiring (src-main/electron/main.ts) under a mocked `electron` and a fake
 * host: what Electron itself would do cannot run here (no binary). Test files call
 * `useAppHarness()` at the top level and `vi.mock('electron', () => import('./electron-mock'))`.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, vi } from 'vitest'
import type { AppHost, AppHostOptions } from '../../src-main/services/host/app-host'
import { EventHub } from '../../src-main/services/host/event-hub'
import { runApp } from '../../src-main/electron/main'
import { BrowserWindow, app, resetElectron } from './electron-mock'

export const harness = { dataDir: '' }

export function fakeHost() {
  const host = {
    router: { handle: vi.fn(async (route: unknown) => ({ ok: true as const, data: { route } })) },
    hub: new EventHub(),
    shutdown: vi.fn(async () => {}),
  }
  const createHost = vi.fn(async (_opts: AppHostOptions) => host as unknown as AppHost)
  return { host, createHost }
}

/** A project folder with a built renderer and the Electron build of better-sqlite3. */
export function appFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-app-'))
  mkdirSync(join(dir, 'out', 'renderer'), { recursive: true })
  writeFileSync(join(dir, 'out', 'renderer', 'index.html'), '<!doctype html><title>Cairn</title>')
  const binding = join(dir, '.electron-native', 'better-sqlite3', 'build', 'Release')
  mkdirSync(binding, { recursive: true })
  writeFileSync(join(binding, 'better_sqlite3.node'), '')
  return dir
}

export async function start(opts: { env?: NodeJS.ProcessEnv; argv?: string[] } = {}) {
  const { host, createHost } = fakeHost()
  await runApp({
    createHost,
    env: { CAIRN_DATA_DIR: harness.dataDir, ...opts.env },
    argv: opts.argv ?? ['electron', '.'],
  })
  return { host, createHost, win: BrowserWindow.instances[0] }
}

export function useAppHarness(): void {
  let signalListeners = { SIGINT: 0, SIGTERM: 0 }
  beforeEach(() => {
    resetElectron()
    app.appPath = appFolder()
    harness.dataDir = join(mkdtempSync(join(tmpdir(), 'cairn-data-')), 'data')
    signalListeners = {
      SIGINT: process.listenerCount('SIGINT'),
      SIGTERM: process.listenerCount('SIGTERM'),
    }
    vi.spyOn(console, 'warn').mockImplementation(() => {})
  })
  afterEach(() => {
    // runApp listens for Ctrl-C; take those listeners off this test process again
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      for (const l of process.listeners(signal).slice(signalListeners[signal]))
        process.off(signal, l)
    }
    vi.restoreAllMocks()
  })
}
