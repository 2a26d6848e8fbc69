/**
 * The application menu: the platform's standard roles, developer tools only in a
 * development build, the window's shortcuts in File, and a Help menu that shows where Cairn
 * keeps its data.
 */
import { BrowserWindow, Menu, dialog, shell } from 'electron'
import type { MenuItemConstructorOptions } from 'electron'

export interface MenuOptions {
  isMac: boolean
  isPackaged: boolean
  showDataDir: () => void
  openDataDir: () => void
  /**
   * the window's own shortcuts (New Chat, Search Chats, Settings): the menu shows them and
   * a click sends the same keys to the window, which handles them (there is no menu channel
   * to the window); the accelerators are not registered, so the keys reach the window too
   */
  sendShortcut?: (key: WindowShortcut) => void
}

export type WindowShortcut = 'n' | 'k' | ','

export function menuTemplate(o: MenuOptions): MenuItemConstructorOptions[] {
  const sep: MenuItemConstructorOptions = { type: 'separator' }
  const template: MenuItemConstructorOptions[] = []
  if (o.isMac) template.push({ role: 'appMenu' })
  const send = o.sendShortcut
  const shortcut = (label: string, key: WindowShortcut): MenuItemConstructorOptions => ({
    label,
    accelerator: `CmdOrCtrl+${key}`,
    registerAccelerator: false,
    click: () => send?.(key),
  })
  template.push({
    label: 'File',
    submenu: [
      ...(send
        ? [
            shortcut('New Chat', 'n'),
            shortcut('Search Chats…', 'k'),
            shortcut('Settings…', ','),
            sep,
          ]
        : []),
      o.isMac ? { role: 'close' } : { role: 'quit' },
    ],
  })
  template.push({
    label: 'Edit',
    submenu: [
      { role: 'undo' },
      { role: 'redo' },
      sep,
      { role: 'cut' },
      { role: 'copy' },
      { role: 'paste' },
      sep,
      { role: 'selectAll' },
    ],
  })
  template.push({
    label: 'View',
    submenu: [
      { role: 'reload' },
      ...(o.isPackaged ? [] : [{ role: 'toggleDevTools' } as const]),
      sep,
      { role: 'resetZoom' },
      { role: 'zoomIn' },
      { role: 'zoomOut' },
      sep,
      { role: 'togglefullscreen' },
    ],
  })
  template.push({ role: 'windowMenu' })
  template.push({
    role: 'help',
    submenu: [
      { label: 'Where Is My Data?', click: () => o.showDataDir() },
      { label: 'Open Data Folder', click: () => o.openDataDir() },
    ],
  })
  return template
}

export function installMenu(dataDir: string, isPackaged: boolean): void {
  const template = menuTemplate({
    isMac: process.platform === 'darwin',
    isPackaged,
    showDataDir: () =>
      void dialog.showMessageBox({
        type: 'info',
        title: 'Cairn data folder',
        message: 'Cairn keeps your conversations, settings and logs in:',
        detail: dataDir,
        buttons: ['OK'],
      }),
    openDataDir: () => void shell.openPath(dataDir),
    sendShortcut: (key) => {
      const contents = BrowserWindow.getFocusedWindow()?.webContents
      if (!contents) return
      const modifiers: ('meta' | 'control')[] = [process.platform === 'darwin' ? 'meta' : 'control']
      contents.sendInputEvent({ type: 'keyDown', keyCode: key, modifiers })
      contents.sendInputEvent({ type: 'keyUp', keyCode: key, modifiers })
    },
  })
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}
