/**
 * The desktop app's consent to run an MCP server's command: a native dialog raised by the
 * main process, showing the complete command line. The renderer cannot answer it for the
 * user, so a compromised page cannot start a program on its own.
 */
import type { BrowserWindow, MessageBoxOptions } from 'electron'
import type { CommandConsentRequest, ConfirmCommand } from '../services/handlers/handler-context'
import { askOverWindow, type MessageBoxApi } from './native-dialogs'

/** The dialog's text: the program, every argument on its own line, the variables it sets. */
export function consentMessage(r: CommandConsentRequest): MessageBoxOptions {
  const lines = [`Program: ${r.command}`]
  if (r.args.length > 0) lines.push('Arguments:', ...r.args.map((a) => `  ${JSON.stringify(a)}`))
  else lines.push('Arguments: none')
  if (r.envNames.length > 0) lines.push(`Environment variables: ${r.envNames.join(', ')}`)
  if (r.cwd) lines.push(`Working folder: ${r.cwd}`)
  return {
    type: 'warning',
    title: 'Start MCP server?',
    message: `Start the MCP server "${r.server}"? It runs this command on your computer:`,
    detail: lines.join('\n'),
    buttons: ['Start server', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  }
}

export function nativeCommandConsent(
  dialog: MessageBoxApi,
  window: () => BrowserWindow | null,
): ConfirmCommand {
  return async (request) => (await askOverWindow(dialog, window, consentMessage(request))) === 0
}
