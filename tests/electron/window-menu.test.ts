import { describe, expect, it, vi } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'
import { DEFAULT_SIZE, restoreBounds } from '../../src-main/electron/window'
import { menuTemplate } from '../../src-main/electron/menu'

vi.mock('electron', () => import('./electron-mock'))

describe('restoreBounds', () => {
  const screens = [
    { x: 0, y: 0, width: 1920, height: 1040 },
    { x: 1920, y: 0, width: 1280, height: 1024 },
  ]

  it('uses the default size when nothing is saved', () => {
    expect(restoreBounds(null, screens)).toEqual(DEFAULT_SIZE)
  })

  it('restores bounds on the second display', () => {
    const b = { x: 2000, y: 100, width: 800, height: 600 }
    expect(restoreBounds(b, screens)).toEqual(b)
  })

  it('drops a position that is (almost) off every display but keeps the size', () => {
    expect(restoreBounds({ x: 3190, y: 100, width: 800, height: 600 }, screens)).toEqual({
      width: 800,
      height: 600,
    })
    expect(restoreBounds({ x: -5000, y: 0, width: 800, height: 600 }, [])).toEqual({
      width: 800,
      height: 600,
    })
  })

  it('ignores nonsense sizes', () => {
    expect(restoreBounds({ x: 10, y: 10, width: 3, height: Number.NaN }, screens)).toEqual({
      x: 10,
      y: 10,
      ...DEFAULT_SIZE,
    })
  })
})

describe('the application menu', () => {
  const labelsOf = (t: MenuItemConstructorOptions[]) => t.map((m) => m.role ?? m.label)
  const submenu = (t: MenuItemConstructorOptions[], label: string) =>
    (
      t.find((m) => m.label === label || m.role === label)!.submenu as MenuItemConstructorOptions[]
    ).map((m) => m.role ?? m.label ?? m.type)
  const options = { showDataDir: vi.fn(), openDataDir: vi.fn() }

  it('has the standard menus, with the app menu on macOS only', () => {
    const linux = menuTemplate({ ...options, isMac: false, isPackaged: true })
    expect(labelsOf(linux)).toEqual(['File', 'Edit', 'View', 'windowMenu', 'help'])
    expect(submenu(linux, 'File')).toEqual(['quit'])
    expect(submenu(linux, 'Edit')).toEqual(
      expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']),
    )
    const mac = menuTemplate({ ...options, isMac: true, isPackaged: true })
    expect(labelsOf(mac)[0]).toBe('appMenu')
  })

  it('offers developer tools only in a development build', () => {
    const packaged = menuTemplate({ ...options, isMac: false, isPackaged: true })
    expect(submenu(packaged, 'View')).not.toContain('toggleDevTools')
    expect(submenu(packaged, 'View')).toEqual(
      expect.arrayContaining(['reload', 'zoomIn', 'togglefullscreen']),
    )
    const dev = menuTemplate({ ...options, isMac: false, isPackaged: false })
    expect(submenu(dev, 'View')).toContain('toggleDevTools')
  })

  it('File lists the window shortcuts, leaves their keys to the window, and a click sends them', () => {
    const sendShortcut = vi.fn()
    const t = menuTemplate({ ...options, isMac: false, isPackaged: true, sendShortcut })
    const file = t.find((m) => m.label === 'File')!.submenu as MenuItemConstructorOptions[]
    const items = file.filter((m) => m.accelerator)
    expect(items.map((m) => [m.label, m.accelerator, m.registerAccelerator])).toEqual([
      ['New Chat', 'CmdOrCtrl+n', false],
      ['Search Chats…', 'CmdOrCtrl+k', false],
      ['Settings…', 'CmdOrCtrl+,', false],
    ])
    for (const item of items) (item.click as () => void)()
    expect(sendShortcut.mock.calls).toEqual([['n'], ['k'], [',']])
  })

  it('Help shows the data directory and opens it', () => {
    const t = menuTemplate({ ...options, isMac: false, isPackaged: true })
    const help = t.find((m) => m.role === 'help')!.submenu as MenuItemConstructorOptions[]
    for (const item of help) (item.click as () => void)()
    expect(options.showDataDir).toHaveBeenCalledTimes(1)
    expect(options.openDataDir).toHaveBeenCalledTimes(1)
  })
})
