/**
 * The desktop shell under the Electron mock (src-main/electron/desktop-shell.ts): the tray's
 * menu in the system's language, the Quick ask shortcut (taken, refused when another app
 * holds it, switched off) through the real `desktop.*` handlers, the Quick ask window (the
 * main window's web preferences, always on top, the page at #/quick-ask), and what closing
 * the main window does (asked once, then kept in the tray or quit).
 */
import { describe, expect, it, vi } from 'vitest'
import { openSettings } from '../../src-main/adapters/settings/settings-store'
import type { Shell } from '../../src-main/electron/desktop-shell'
import { desktopHandlers } from '../../src-main/services/handlers/desktop'
import type { HandlerContext } from '../../src-main/services/handlers/handler-context'
import { harness, start, useAppHarness } from './app-harness'
import { BrowserWindow, Tray, app, dialog, globalShortcut } from './electron-mock'

vi.mock('electron', () => import('./electron-mock'))

useAppHarness()

async function started() {
  const s = await start()
  const shell = s.createHost.mock.calls[0]![0].desktop as Shell
  const settings = openSettings(harness.dataDir)
  const context = {
    app: { settings, store: { getSession: (id: string) => (id === 'chat-1' ? { id } : null) } },
    desktop: shell,
  } as unknown as HandlerContext
  return { ...s, shell, settings, routes: desktopHandlers(context) }
}

const menu = () => Tray.instances[0]!.menu!.template
const labels = () => menu().map((i) => i.label ?? i.type)
const click = (label: string) => menu().find((i) => i.label === label)!.click!()
const quickAskWindow = () => BrowserWindow.instances.find((w) => w.options['alwaysOnTop'])

describe('the tray', () => {
  it('offers New chat, Quick ask, Show Cairn and Quit', async () => {
    const { win } = await started()
    expect(labels()).toEqual(['New chat', 'Quick ask', 'Show Cairn', 'separator', 'Quit Cairn'])
    expect(Tray.instances[0]!.tooltip).toBe('Cairn')
    win!.hide()
    click('Show Cairn')
    expect(win!.isVisible()).toBe(true)
    click('New chat')
    expect(win!.webContents.getURL()).toMatch(/#\/new$/)
    click('Quit Cairn')
    expect(app.quit).toHaveBeenCalled()
  })

  it('speaks the system’s language', async () => {
    app.preferredLanguages = ['ja-JP', 'en-US']
    await started()
    expect(labels()).toEqual([
      '新しいチャット',
      'クイック質問',
      'Cairn を表示',
      'separator',
      'Cairn を終了',
    ])
  })
})

describe('Quick ask', () => {
  it('opens from the tray in a window on top, with the main window’s web preferences', async () => {
    const { win } = await started()
    expect(quickAskWindow()).toBeUndefined()
    click('Quick ask')
    const quick = quickAskWindow()!
    expect(quick.options).toMatchObject({ alwaysOnTop: true, skipTaskbar: true, show: false })
    expect(quick.options['webPreferences']).toEqual(win!.options['webPreferences'])
    expect(quick.options['webPreferences']).toMatchObject({
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
    })
    expect(quick.webContents.getURL()).toMatch(/#\/quick-ask$/)
    expect(quick.isVisible()).toBe(true)
    // its close button hides it: the next open is instant
    quick.close()
    expect(quick.closed).toBe(false)
    expect(quick.isVisible()).toBe(false)
  })

  it('has Alt+Space by default, which opens it and, when it has the focus, hides it', async () => {
    await started()
    expect([...globalShortcut.held.keys()]).toEqual(['Alt+Space'])
    globalShortcut.press('Alt+Space')
    const quick = quickAskWindow()!
    expect(quick.isVisible()).toBe(true)
    globalShortcut.press('Alt+Space')
    expect(quick.isVisible()).toBe(false)
    expect(BrowserWindow.instances.filter((w) => w.options['alwaysOnTop'])).toHaveLength(1)
  })

  it('takes another shortcut and saves it; one another app holds is refused, the old one stays', async () => {
    const { routes, settings } = await started()
    const changed = await routes['desktop.setQuickAskShortcut']({ shortcut: 'Ctrl+Shift+Space' })
    expect(changed.quickAsk).toMatchObject({ shortcut: 'Ctrl+Shift+Space', registered: true })
    expect([...globalShortcut.held.keys()]).toEqual(['Ctrl+Shift+Space'])
    expect(settings.get().desktop.quickAskShortcut).toBe('Ctrl+Shift+Space')

    globalShortcut.heldByOthers.add('Ctrl+Alt+K')
    await expect(
      routes['desktop.setQuickAskShortcut']({ shortcut: 'Ctrl+Alt+K' }),
    ).rejects.toMatchObject({
      code: 'shortcut_taken',
      details: { shortcut: 'Ctrl+Alt+K' },
      message: expect.stringContaining('Another app already uses Ctrl+Alt+K'),
    })
    expect([...globalShortcut.held.keys()]).toEqual(['Ctrl+Shift+Space'])
    expect(settings.get().desktop.quickAskShortcut).toBe('Ctrl+Shift+Space')
  })

  it('can be switched off, and says when another app held it at start', async () => {
    globalShortcut.heldByOthers.add('Alt+Space')
    const { routes } = await started()
    expect(console.warn).toHaveBeenCalledWith(
      expect.stringContaining('Another app holds Alt+Space'),
    )
    expect((await routes['desktop.status']({})).quickAsk).toEqual({
      shortcut: 'Alt+Space',
      registered: false,
      defaultShortcut: 'Alt+Space',
    })
    const off = await routes['desktop.setQuickAskShortcut']({ shortcut: null })
    expect(off.quickAsk).toMatchObject({ shortcut: null, registered: false })
    expect(globalShortcut.held.size).toBe(0)
  })

  it('"Open in Cairn" shows the main window at the chat and hides Quick ask', async () => {
    const { routes, win } = await started()
    click('Quick ask')
    win!.hide()
    expect(await routes['desktop.openInMain']({ sessionId: 'chat-1' })).toEqual({ opened: true })
    expect(win!.isVisible()).toBe(true)
    expect(win!.webContents.getURL()).toMatch(/#\/session\/chat-1$/)
    expect(quickAskWindow()!.isVisible()).toBe(false)
    await expect(routes['desktop.openInMain']({ sessionId: 'gone' })).rejects.toMatchObject({
      code: 'not_found',
    })
  })
})

describe('closing the main window', () => {
  it('asks once; "Keep in tray" hides it and is remembered', async () => {
    const { win, settings } = await started()
    dialog.showMessageBox.mockResolvedValueOnce({ response: 0 } as never)
    win!.close()
    await vi.waitFor(() => expect(win!.hide).toHaveBeenCalled())
    expect(win!.closed).toBe(false)
    expect(dialog.showMessageBox).toHaveBeenCalledWith(
      win,
      expect.objectContaining({
        message: 'Keep Cairn running in the tray when you close the window?',
        buttons: ['Keep in tray', 'Quit'],
      }),
    )
    expect(settings.get().desktop.closeToTray).toBe(true)
    win!.show()
    win!.close()
    expect(dialog.showMessageBox).toHaveBeenCalledTimes(1)
    expect(win!.isVisible()).toBe(false)
    expect(app.quit).not.toHaveBeenCalled()
  })

  it('"Quit" quits, and so does every close after it', async () => {
    const { win, settings } = await started()
    dialog.showMessageBox.mockResolvedValueOnce({ response: 1 } as never)
    win!.close()
    await vi.waitFor(() => expect(app.quit).toHaveBeenCalled())
    expect(settings.get().desktop.closeToTray).toBe(false)
  })

  it('keeps it in the tray when Settings › General says so', async () => {
    const { win, routes } = await started()
    await routes['desktop.setCloseToTray']({ closeToTray: true })
    win!.close()
    expect(win!.closed).toBe(false)
    expect(win!.hide).toHaveBeenCalled()
    expect(dialog.showMessageBox).not.toHaveBeenCalled()
  })
})
