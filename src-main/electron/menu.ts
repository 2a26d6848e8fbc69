/**
 * The application menu: the platform's standard roles, developer tools only in a
 * development build, and a Help menu that shows where Cairn keeps its data.
 */
import { Menu, dialog, shell } from 'electron'
import type { MenuItemConstructorOptions } from 'electron'

export interface MenuOptions {
  isMac: boolean
  isPackaged: boolean
  showDataDir: () => void
  openDataDir: () => void
}

export function menuTemplate(o: MenuOptions): MenuItemConstructorOptions[] {
  const sep: MenuItemConstructorOptions = { type: 'separator' }
  const template: MenuItemConstructorOptions[] = []
  if (o.isMac) template.push({ role: 'appMenu' })
  template.push({ label: 'File', submenu: [o.isMac ? { role: 'close' } : { role: 'quit' }] })
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
  })
  Menu.setApplicationMenu(Menu.buildFromTemplate(template))
}
