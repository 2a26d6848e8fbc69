/** The desktop app's lifecycle: one instance, clean quit, remembered window bounds. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { BrowserWindow, app } from './electron-mock'
import { harness, start, useAppHarness } from './app-harness'

vi.mock('electron', () => import('./electron-mock'))
useAppHarness()

describe('one instance per data directory', () => {
  it('quits a second launch without opening anything', async () => {
    app.gotLock = false
    const { createHost } = await start()
    expect(app.quit).toHaveBeenCalled()
    expect(createHost).not.toHaveBeenCalled()
    expect(BrowserWindow.instances).toHaveLength(0)
  })

  it('focuses the first window when a second launch is attempted', async () => {
    const { win } = await start()
    win!.minimized = true
    app.emit('second-instance')
    expect(win!.restore).toHaveBeenCalled()
    expect(win!.focus).toHaveBeenCalled()
  })
})

describe('quitting', () => {
  it('holds the quit, shuts the host down once, then exits', async () => {
    const { host } = await start()
    let finish!: () => void
    host.shutdown.mockImplementation(() => new Promise<void>((r) => (finish = r)))
    expect(app.quit()).toBe(true) // before-quit was prevented
    expect(app.quit()).toBe(true) // a second quit while shutting down: held again
    await vi.waitFor(() => expect(host.shutdown).toHaveBeenCalledTimes(1))
    expect(app.quit()).toBe(true)
    expect(app.exit).not.toHaveBeenCalled()
    finish()
    await vi.waitFor(() => expect(app.exit).toHaveBeenCalledWith(0))
    expect(host.shutdown).toHaveBeenCalledTimes(1)
  })

  it('quits on window-all-closed (except on macOS)', async () => {
    await start()
    app.emit('window-all-closed')
    if (process.platform === 'darwin') expect(app.quit).not.toHaveBeenCalled()
    else expect(app.quit).toHaveBeenCalled()
  })
})

describe('window bounds', () => {
  const settingsFile = () => join(harness.dataDir, 'settings.json')
  function saveBounds(bounds: object) {
    mkdirSync(harness.dataDir, { recursive: true })
    writeFileSync(settingsFile(), JSON.stringify({ window: bounds }))
  }

  it('are restored when they are on a visible display', async () => {
    saveBounds({ x: 100, y: 80, width: 900, height: 650 })
    const { win } = await start()
    expect(win!.options).toMatchObject({ x: 100, y: 80, width: 900, height: 650 })
  })

  it('keep only the size when the saved position is off every display', async () => {
    saveBounds({ x: 5000, y: 3000, width: 900, height: 650 })
    const { win } = await start()
    expect(win!.options).toMatchObject({ width: 900, height: 650 })
    expect(win!.options).not.toHaveProperty('x')
  })

  it('are saved in the settings when the window closes', async () => {
    const { win } = await start()
    win!.bounds = { x: 33, y: 44, width: 1200, height: 800 }
    win!.emit('close', { preventDefault: () => {} })
    const saved = JSON.parse(readFileSync(settingsFile(), 'utf8')) as { window: unknown }
    expect(saved.window).toEqual({ x: 33, y: 44, width: 1200, height: 800 })
  })

  it('are saved when the app quits from the menu (which exits without closing the window)', async () => {
    const { win } = await start()
    win!.bounds = { x: 55, y: 66, width: 1111, height: 777 }
    app.quit()
    const saved = JSON.parse(readFileSync(settingsFile(), 'utf8')) as { window: unknown }
    expect(saved.window).toEqual({ x: 55, y: 66, width: 1111, height: 777 })
  })
})
