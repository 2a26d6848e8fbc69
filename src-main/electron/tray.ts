/**
 * The tray icon and its menu: New chat, Quick ask, Show Cairn, Quit, in the shell's
 * language. A click on the icon shows the main window (where the platform reports clicks).
 */
import { Menu, Tray, nativeImage } from 'electron'
import type { MenuItemConstructorOptions } from 'electron'
import type { ShellText } from './shell-text'

export interface TrayActions {
  newChat(): void
  quickAsk(): void
  show(): void
  quit(): void
}

export function trayMenuTemplate(text: ShellText, a: TrayActions): MenuItemConstructorOptions[] {
  return [
    { label: text.newChat, click: () => a.newChat() },
    { label: text.quickAsk, click: () => a.quickAsk() },
    { label: text.show, click: () => a.show() },
    { type: 'separator' },
    { label: text.quit, click: () => a.quit() },
  ]
}

export function installTray(iconPath: string, text: ShellText, actions: TrayActions): Tray {
  const icon = nativeImage.createFromPath(iconPath).resize({ width: 16, height: 16 })
  const tray = new Tray(icon)
  tray.setToolTip(text.tooltip)
  tray.setContextMenu(Menu.buildFromTemplate(trayMenuTemplate(text, actions)))
  tray.on('click', () => actions.show())
  return tray
}
