/**
 * The system's folder picker and save dialog, shown by the main process over the app's
 * window. The page only asks; the path comes from what the user chose here.
 */
import type {
  BrowserWindow,
  MessageBoxOptions,
  OpenDialogOptions,
  OpenDialogReturnValue,
  SaveDialogOptions,
  SaveDialogReturnValue,
} from 'electron'
import type { NativeDialogs } from '../services/handlers/handler-context'

export interface DialogApi {
  showOpenDialog(win: BrowserWindow, options: OpenDialogOptions): Promise<OpenDialogReturnValue>
  showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue>
  showSaveDialog(win: BrowserWindow, options: SaveDialogOptions): Promise<SaveDialogReturnValue>
  showSaveDialog(options: SaveDialogOptions): Promise<SaveDialogReturnValue>
}

export interface MessageBoxApi {
  showMessageBox(win: BrowserWindow, options: MessageBoxOptions): Promise<{ response: number }>
  showMessageBox(options: MessageBoxOptions): Promise<{ response: number }>
}

/** Shows a message box over the window when there is one; the index of the button chosen. */
export async function askOverWindow(
  dialog: MessageBoxApi,
  window: () => BrowserWindow | null,
  options: MessageBoxOptions,
): Promise<number> {
  const win = window()
  const { response } = win
    ? await dialog.showMessageBox(win, options)
    : await dialog.showMessageBox(options)
  return response
}

/** The file type filter a suggested name implies (an export is Markdown or JSON). */
export function filtersFor(name: string): SaveDialogOptions['filters'] {
  const ext = name.includes('.') ? name.slice(name.lastIndexOf('.') + 1).toLowerCase() : ''
  const known: Record<string, string> = { md: 'Markdown', json: 'JSON', txt: 'Text' }
  const label = known[ext]
  return label
    ? [
        { name: label, extensions: [ext] },
        { name: 'All files', extensions: ['*'] },
      ]
    : []
}

export function nativeDialogs(
  dialog: DialogApi,
  window: () => BrowserWindow | null,
): NativeDialogs {
  return {
    async pickFolder({ title, defaultPath }) {
      const options: OpenDialogOptions = {
        title,
        properties: ['openDirectory', 'createDirectory', 'dontAddToRecent'],
        ...(defaultPath ? { defaultPath } : {}),
      }
      const win = window()
      const r = win
        ? await dialog.showOpenDialog(win, options)
        : await dialog.showOpenDialog(options)
      return r.canceled ? null : (r.filePaths[0] ?? null)
    },
    async pickExtensionFile({ title }) {
      const options: OpenDialogOptions = {
        title,
        properties: ['openFile', 'dontAddToRecent'],
        filters: [
          { name: 'Claude Desktop extensions', extensions: ['mcpb', 'dxt'] },
          { name: 'All files', extensions: ['*'] },
        ],
      }
      const win = window()
      const r = win
        ? await dialog.showOpenDialog(win, options)
        : await dialog.showOpenDialog(options)
      return r.canceled ? null : (r.filePaths[0] ?? null)
    },
    async pickModelFile({ title }) {
      const options: OpenDialogOptions = {
        title,
        properties: ['openFile', 'dontAddToRecent'],
        filters: [
          { name: 'GGUF models', extensions: ['gguf'] },
          { name: 'All files', extensions: ['*'] },
        ],
      }
      const win = window()
      const r = win
        ? await dialog.showOpenDialog(win, options)
        : await dialog.showOpenDialog(options)
      return r.canceled ? null : (r.filePaths[0] ?? null)
    },
    async pickFiles({ title }) {
      const options: OpenDialogOptions = {
        title,
        properties: ['openFile', 'multiSelections', 'dontAddToRecent'],
      }
      const win = window()
      const r = win
        ? await dialog.showOpenDialog(win, options)
        : await dialog.showOpenDialog(options)
      return r.canceled ? [] : r.filePaths
    },
    async chooseSavePath({ defaultName }) {
      const options: SaveDialogOptions = {
        title: 'Export chat',
        defaultPath: defaultName,
        filters: filtersFor(defaultName),
        properties: ['createDirectory', 'showOverwriteConfirmation'],
      }
      const win = window()
      const r = win
        ? await dialog.showSaveDialog(win, options)
        : await dialog.showSaveDialog(options)
      return r.canceled || !r.filePath ? null : r.filePath
    },
  }
}
