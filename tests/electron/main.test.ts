/** Starting the desktop app: data directory, host, window, IPC, protocol, session, menu. */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, onTestFinished, vi } from 'vitest'
import { CHANNELS } from '../../src-preload/contract/bridge'
import { runApp } from '../../src-main/electron/main'
import { FakeWebContents, Menu, app, dialog, ipcMain, protocol, session } from './electron-mock'
import { harness, fakeHost, start, useAppHarness } from './app-harness'

vi.mock('electron', () => import('./electron-mock'))
useAppHarness()

describe('starting the app', () => {
  it('registers app: as privileged and sets the data directory before the app is ready', async () => {
    const { createHost } = fakeHost()
    const running = runApp({
      createHost,
      env: { CAIRN_DATA_DIR: harness.dataDir },
      argv: ['electron', '.'],
    })
    // synchronously, before ready
    expect(protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      { scheme: 'app', privileges: { standard: true, secure: true, supportFetchAPI: true } },
    ])
    expect(app.setPath).toHaveBeenCalledWith('userData', harness.dataDir)
    expect(app.setPath.mock.invocationCallOrder[0]).toBeLessThan(
      app.requestSingleInstanceLock.mock.invocationCallOrder[0]!,
    )
    expect(createHost).not.toHaveBeenCalled()
    await running
    expect(createHost).toHaveBeenCalledTimes(1)
  })

  it('takes --data-dir over CAIRN_DATA_DIR', async () => {
    const flagDir = join(harness.dataDir, 'from-flag')
    const { createHost } = await start({ argv: ['electron', '.', '--data-dir', flagDir] })
    expect(app.setPath).toHaveBeenCalledWith('userData', flagDir)
    expect(createHost.mock.calls[0]![0].dataDir).toBe(flagDir)
  })

  it('creates the host with the environment, safeStorage and the Electron build of better-sqlite3', async () => {
    const { createHost } = await start({ env: { CAIRN_MODEL: 'm' } })
    const opts = createHost.mock.calls[0]![0]
    expect(opts).toMatchObject({
      dataDir: harness.dataDir,
      hostKind: 'electron',
      version: '0.0.0-test',
    })
    expect(opts.env).toMatchObject({ CAIRN_MODEL: 'm', CAIRN_DATA_DIR: harness.dataDir })
    expect(opts.nativeBinding).toBe(
      join(
        app.appPath,
        '.electron-native',
        'better-sqlite3',
        'build',
        'Release',
        'better_sqlite3.node',
      ),
    )
    expect(opts.secretsCodec?.encrypt('k')).toMatch(/^safe:/)
  })

  it('opens a locked-down window on app://cairn', async () => {
    const { win } = await start()
    expect(win).toBeDefined()
    const prefs = win!.options['webPreferences'] as Record<string, unknown>
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
    })
    expect(prefs['allowRunningInsecureContent']).not.toBe(true)
    expect(prefs['experimentalFeatures']).not.toBe(true)
    expect(String(prefs['preload']).replaceAll('\\', '/')).toMatch(/\/preload\/index\.cjs$/)
    expect(win!.webContents.loadURL).toHaveBeenCalledWith('app://cairn/index.html')
  })

  it('loads the dev server when not packaged and ELECTRON_RENDERER_URL is set, and trusts its origin', async () => {
    const { win, host } = await start({ env: { ELECTRON_RENDERER_URL: 'http://localhost:5173' } })
    expect(win!.webContents.loadURL).toHaveBeenCalledWith('http://localhost:5173')
    const handle = ipcMain.handlers.get(CHANNELS.request)!
    const frame = { url: 'http://localhost:5173/', parent: null }
    await expect(
      handle(...([{ senderFrame: frame }, 'app.info', {}] as never[])),
    ).resolves.toMatchObject({ ok: true })
    expect(host.router.handle).toHaveBeenCalled()
  })

  it('ignores ELECTRON_RENDERER_URL in a packaged app', async () => {
    app.isPackaged = true
    const proc = process as unknown as { resourcesPath: string | undefined }
    const before = proc.resourcesPath
    const resources = join(app.appPath, 'resources')
    proc.resourcesPath = resources
    onTestFinished(() => void (proc.resourcesPath = before))
    mkdirSync(join(resources, 'native'), { recursive: true })
    writeFileSync(join(resources, 'native', 'better_sqlite3.node'), '')
    const { win, createHost } = await start({
      env: { ELECTRON_RENDERER_URL: 'http://evil.example' },
    })
    expect(win!.webContents.loadURL).toHaveBeenCalledWith('app://cairn/index.html')
    expect(createHost.mock.calls[0]![0].nativeBinding).toBe(
      join(resources, 'native', 'better_sqlite3.node'),
    )
  })

  it('wires IPC to the router with the sender check first', async () => {
    const { host } = await start()
    const handle = ipcMain.handlers.get(CHANNELS.request)!
    const call = (frame: unknown) =>
      handle(...([{ senderFrame: frame }, 'app.info', {}] as never[]))
    await expect(call({ url: 'app://cairn/index.html', parent: null })).resolves.toEqual({
      ok: true,
      data: { route: 'app.info' },
    })
    await expect(call({ url: 'https://evil.example/', parent: null })).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden' },
    })
    expect(host.router.handle).toHaveBeenCalledTimes(1)
  })

  it('serves the renderer on app: and hardens the session', async () => {
    await start()
    const res = await protocol.handlers.get('app')!(new Request('app://cairn/index.html'))
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'")
    const s = session.defaultSession
    const callback = vi.fn()
    s.permissionRequest!(...([{}, 'media', callback] as never[]))
    expect(callback).toHaveBeenCalledWith(false)
    expect(s.permissionCheck!(...([] as never[]))).toBe(false)
    expect(s.headersReceived).not.toBeNull()
  })

  it('guards every webContents that is created', async () => {
    await start()
    const contents = new FakeWebContents()
    app.emit('web-contents-created', {}, contents)
    expect(contents.windowOpenHandler!({ url: 'https://example.com' })).toEqual({ action: 'deny' })
    const nav = { url: 'https://example.com', preventDefault: vi.fn() }
    contents.emit('will-navigate', nav)
    expect(nav.preventDefault).toHaveBeenCalled()
  })

  it('sends hub events to the window once its page has loaded, until it is gone', async () => {
    const { win, host } = await start()
    const contents = win!.webContents
    contents.emit('did-finish-load')
    expect(host.hub.subscriberCount).toBe(1)
    const event = { event: 'sessions.changed' as const, payload: { sessionId: null } }
    host.hub.publish(event)
    expect(contents.send).toHaveBeenCalledWith(CHANNELS.event, event)
    contents.destroy()
    expect(host.hub.subscriberCount).toBe(0)
  })

  it('installs the application menu', async () => {
    await start()
    expect(Menu.setApplicationMenu).toHaveBeenCalledTimes(1)
  })

  it('shows an error and exits when the host cannot start', async () => {
    const createHost = vi.fn(async () => {
      throw new Error('database is locked')
    })
    await runApp({ createHost, env: { CAIRN_DATA_DIR: harness.dataDir }, argv: [] })
    expect(dialog.showErrorBox).toHaveBeenCalledWith('Cairn could not start', 'database is locked')
    expect(app.exit).toHaveBeenCalledWith(1)
  })

  it('says how to build better-sqlite3 for Electron when it is missing', async () => {
    app.appPath = mkdtempSync(join(tmpdir(), 'cairn-app-empty-'))
    const { createHost } = fakeHost()
    await runApp({ createHost, env: { CAIRN_DATA_DIR: harness.dataDir }, argv: [] })
    expect(createHost).not.toHaveBeenCalled()
    expect(dialog.showErrorBox.mock.calls[0]![1]).toContain('node scripts/electron-native.mjs')
  })
})
