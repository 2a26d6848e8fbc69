/**
 * A damaged database at start: the desktop app asks, in a native dialog, whether to copy
 * it aside and start a new one (nothing is deleted), or to quit. Never without the user.
 * Other problems (a data directory Cairn cannot write to) are reported as they are. Damage
 * a query finds later is asked about the same way, from the window's "Start a new
 * database" (`app.replaceDamagedDatabase`), in a dialog the page cannot answer for the user.
 */
import type { BrowserWindow, Dialog, MessageBoxOptions } from 'electron'
import { setDamagedDatabaseAside, StorageError } from '../adapters/sqlite/open-errors'
import { askOverWindow } from './native-dialogs'
import { ExpectedError } from '../core/errors'

/** The user chose to quit from the dialog: nothing more to say. */
export class QuitChosen extends ExpectedError<'aborted'> {
  override readonly name = 'QuitChosen'
  constructor(message: string) {
    super('aborted', message)
  }
}

export function damagedDatabaseDialog(e: StorageError): MessageBoxOptions {
  return {
    type: 'error',
    title: 'Cairn’s database is damaged',
    message: 'Cairn’s database is damaged and cannot be opened.',
    detail:
      `${e.message}\n\n` +
      '“Start a new database” moves the damaged file aside (next to it, for recovery) and ' +
      'opens a new, empty one. Your settings and API keys are kept.',
    buttons: ['Start a new database', 'Quit'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  }
}

export async function openWithRecovery<T>(
  open: () => Promise<T>,
  o: {
    dataDir: string
    ask: (options: MessageBoxOptions) => Promise<{ response: number }>
    warn: (message: string) => void
    /** injectable for tests */
    setAside?: (dataDir: string) => string
  },
): Promise<T> {
  try {
    return await open()
  } catch (e) {
    if (!(e instanceof StorageError) || e.code !== 'database_damaged') throw e
    const { response } = await o.ask(damagedDatabaseDialog(e))
    if (response !== 0) throw new QuitChosen('The damaged database was left as it is.')
    const aside = (o.setAside ?? setDamagedDatabaseAside)(o.dataDir)
    o.warn(`The damaged database was moved to ${aside}; a new one is started.`)
    return await open()
  }
}

/** The dialog for damage found after the database opened: start a new one, or keep it. */
function newDatabaseDialog(damage: string): MessageBoxOptions {
  return {
    type: 'warning',
    title: 'Start a new database?',
    message: 'Move Cairn’s damaged database aside and start a new, empty one?',
    detail:
      `${damage}\n\n` +
      '“Start a new database” stops running answers, moves the damaged file aside (next to it, ' +
      'for recovery) and opens a new, empty one: the chats in it are no longer listed. Your ' +
      'settings and API keys are kept.',
    buttons: ['Start a new database', 'Keep it for now'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
  }
}

/** `confirmNewDatabase` for the host: the native dialog, over the window when there is one. */
export function nativeNewDatabaseConsent(
  dialog: Pick<Dialog, 'showMessageBox'>,
  window: () => BrowserWindow | null,
): (damage: string) => Promise<boolean> {
  return async (damage) => (await askOverWindow(dialog, window, newDatabaseDialog(damage))) === 0
}
