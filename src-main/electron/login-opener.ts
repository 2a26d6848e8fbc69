/**
 * The desktop app's way to open a remote MCP server's login address: a native dialog shows
 * the address first (raised by the main process, so the page cannot answer it), then the
 * system's browser opens it through the shell. The address is checked by the one browser opener
 * first (a login only over https, plain http only on this machine): a refused one shows no
 * dialog and throws why.
 */
import type { BrowserWindow, MessageBoxOptions } from 'electron'
import { openInBrowser } from '../adapters/mcp/browser-opener'
import type { OpenAuthorization } from '../services/handlers/handler-context'
import { askOverWindow, type MessageBoxApi } from './native-dialogs'

export function loginMessage(server: string, url: string): MessageBoxOptions {
  return {
    type: 'question',
    title: 'Log in to MCP server?',
    message: `Log in to the MCP server "${server}"? Your browser opens at this address:`,
    detail: url,
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 0,
    cancelId: 1,
    noLink: true,
  }
}

export function nativeLoginOpener(
  dialog: MessageBoxApi,
  shell: { openExternal(url: string): Promise<void> },
  window: () => BrowserWindow | null,
): OpenAuthorization {
  return (server, url) =>
    openInBrowser(url, {
      purpose: 'login',
      confirm: async (u) => (await askOverWindow(dialog, window, loginMessage(server, u))) === 0,
      open: (u) => shell.openExternal(u),
    })
}
