/**
 * The desktop app, composed: the data directory and the single-instance lock before
 * ready; then the hardened session, the app: protocol, the host, the IPC transport, the
 * menu and the window. Everything it uses is in the files beside it.
 */
import {
  BrowserWindow,
  app,
  dialog,
  ipcMain,
  protocol,
  safeStorage,
  session,
  shell,
} from 'electron'
import type { WindowBounds } from '../adapters/settings/schema'
import type { SettingsStoreFactory } from '../adapters/settings/settings-store'
import { openSettings } from '../adapters/settings/settings-store'
import type { AppHost, AppHostOptions } from '../services/host/app-host'
import { nativeCommandConsent } from './command-consent'
import { nativeLoginOpener } from './login-opener'
import { nativeNewDatabaseConsent, openWithRecovery, QuitChosen } from './damaged-database'
import { nativeDialogs } from './native-dialogs'
import { forwardEvents, handleRequests } from './ipc'
import { quitCleanly, quitOnSignals, takeSingleInstanceLock } from './lifecycle'
import { installMenu } from './menu'
import { findNativeBinding } from './native-binding'
import { appDataDir, appFiles, argValue } from './paths'
import { APP_INDEX_URL, handleAppProtocol, registerAppScheme } from './protocol'
import { safeStorageCodec } from './secrets-codec'
import { guardWebContents, hardenSession, trustedOrigins } from './security'
import { createMainWindow, loadMainPage, saveWindowBounds } from './window'

export interface RunAppOptions {
  createHost: (opts: AppHostOptions) => Promise<AppHost>
  /** how settings.json is opened (the app: electron-store; default: read directly) */
  createStore?: SettingsStoreFactory
  argv?: readonly string[]
  env?: NodeJS.ProcessEnv
}

const warn = (message: string): void => console.warn(`[cairn] ${message}`)

/** Starts the app; resolves once the window is open (or the app is on its way out). */
export function runApp(o: RunAppOptions): Promise<void> {
  const argv = o.argv ?? process.argv
  const env = o.env ?? process.env
  registerAppScheme(protocol)
  const dataDir = appDataDir(argv, env)
  app.setName('Cairn')
  app.setPath('userData', dataDir) // before the lock: one Cairn per data directory
  let mainWindow: BrowserWindow | null = null
  if (!takeSingleInstanceLock(app, () => mainWindow)) {
    app.quit()
    return Promise.resolve()
  }
  const devUrl = app.isPackaged ? undefined : env['ELECTRON_RENDERER_URL']
  const origins = trustedOrigins(devUrl)
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, origins, (url) => shell.openExternal(url)),
  )
  let host: Promise<AppHost> | null = null
  quitCleanly(app, async () => (await host?.catch(() => null))?.shutdown(), {
    onError: (e) => warn(`Quitting: ${e instanceof Error ? e.message : String(e)}`),
  })
  quitOnSignals(app)
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  const start = async (): Promise<void> => {
    hardenSession(session.defaultSession)
    const files = appFiles(app.getAppPath())
    handleAppProtocol(protocol, files.renderer)
    const storeOpts = o.createStore ? { createStore: o.createStore } : {}
    const mcpConfigFile = argValue(argv, 'mcp-config')
    const hostOptions: AppHostOptions = {
      dataDir,
      hostKind: 'electron',
      version: app.getVersion(),
      env,
      ...(mcpConfigFile !== undefined ? { mcpConfigFile } : {}),
      secretsCodec: safeStorageCodec(safeStorage, warn),
      nativeBinding: findNativeBinding({
        isPackaged: app.isPackaged,
        appPath: app.getAppPath(),
        resourcesPath: process.resourcesPath,
      }),
      ...(o.createStore ? { settingsStoreFactory: o.createStore } : {}),
      onWarning: warn,
      confirmCommand: nativeCommandConsent(dialog, () => mainWindow),
      openAuthorization: nativeLoginOpener(dialog, shell, () => mainWindow),
      dialogs: nativeDialogs(dialog, () => mainWindow),
      confirmNewDatabase: nativeNewDatabaseConsent(dialog, () => mainWindow),
    }
    host = openWithRecovery(() => o.createHost(hostOptions), {
      dataDir,
      ask: (options) => dialog.showMessageBox(options),
      warn,
    })
    const { router, hub } = await host
    handleRequests(ipcMain, router, origins)
    installMenu(dataDir, app.isPackaged)
    const settings = openSettings(dataDir, { onWarning: warn, ...storeOpts })
    // when the window closes or the app quits: written before the process may exit
    const saveBounds = (bounds: WindowBounds): void => {
      try {
        settings.updateSync((s) => void (s.window = bounds))
      } catch (e) {
        warn(`The window's size was not saved: ${(e as Error).message}`)
      }
    }
    // quitting from the menu exits without closing the window: remember its bounds first
    app.on('before-quit', () => mainWindow && saveWindowBounds(mainWindow, saveBounds))
    const openWindow = (): void => {
      const win = createMainWindow({
        preload: files.preload,
        saved: settings.get().window,
        saveBounds,
      })
      win.on('closed', () => {
        if (mainWindow === win) mainWindow = null
      })
      forwardEvents(win.webContents, hub, origins)
      void loadMainPage(win, devUrl ?? APP_INDEX_URL, warn)
      mainWindow = win
    }
    openWindow()
    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) openWindow()
    })
  }

  return app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      if (e instanceof QuitChosen) return app.exit(1)
      const message = e instanceof Error ? e.message : String(e)
      warn(`Could not start: ${e instanceof Error ? (e.stack ?? message) : message}`)
      dialog.showErrorBox('Cairn could not start', message)
      app.exit(1)
    })
}
