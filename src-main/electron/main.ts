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
  utilityProcess,
} from 'electron'
import type { WindowBounds } from '../adapters/settings/schema'
import type { SettingsStoreFactory } from '../adapters/settings/settings-store'
import type { SettingsStore } from '../core/service-ports'
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
import { appDataDir, appFiles, argValue, trayIconPath } from './paths'
import { APP_INDEX_URL, handleAppProtocol, registerAppScheme } from './protocol'
import { runtimeScript, utilityRuntimeLauncher } from './runtime-process'
import { safeStorageCodec } from './secrets-codec'
import { guardWebContents, hardenSession, trustedOrigins } from './security'
import { createMainWindow, loadMainPage, saveWindowBounds } from './window'
import { Shell } from './desktop-shell'

export interface RunAppOptions {
  createHost: (opts: AppHostOptions) => Promise<AppHost>
  /** how settings.json is opened (the app: electron-store; default: read directly) */
  createStore?: SettingsStoreFactory
  argv?: readonly string[]
  env?: NodeJS.ProcessEnv
}

const warn = (message: string): void => console.warn(`[cairn] ${message}`)

/** What the app was started with, settled before it is ready. */
interface Launch {
  argv: readonly string[]
  env: NodeJS.ProcessEnv
  dataDir: string
  /** the dev server's address (not packaged, under electron-vite dev) */
  devUrl: string | undefined
  /** the origins whose pages are ours */
  origins: string[]
}

/** What the app holds while it runs: its window, its engine and the shell around them. */
interface Running {
  window: BrowserWindow | null
  host: Promise<AppHost> | null
  shell: Shell | null
}

/** Starts the app; resolves once the window is open (or the app is on its way out). */
export function runApp(o: RunAppOptions): Promise<void> {
  const argv = o.argv ?? process.argv
  const env = o.env ?? process.env
  registerAppScheme(protocol)
  const dataDir = appDataDir(argv, env)
  app.setName('Cairn')
  app.setPath('userData', dataDir) // before the lock: one Cairn per data directory
  const running: Running = { window: null, host: null, shell: null }
  if (!takeSingleInstanceLock(app, () => running.window)) {
    app.quit()
    return Promise.resolve()
  }
  const devUrl = app.isPackaged ? undefined : env['ELECTRON_RENDERER_URL']
  const launch: Launch = { argv, env, dataDir, devUrl, origins: trustedOrigins(devUrl) }
  watchLifecycle(launch, running)
  return app
    .whenReady()
    .then(() => startApp(o, launch, running))
    .catch((e: unknown) => {
      if (e instanceof QuitChosen) return app.exit(1)
      const message = e instanceof Error ? e.message : String(e)
      warn(`Could not start: ${e instanceof Error ? (e.stack ?? message) : message}`)
      dialog.showErrorBox('Cairn could not start', message)
      app.exit(1)
    })
}

/** Before ready: every page guarded, the engine shut down on quit and on signals. */
function watchLifecycle(launch: Launch, running: Running): void {
  app.on('web-contents-created', (_event, contents) =>
    guardWebContents(contents, launch.origins, (url) => shell.openExternal(url)),
  )
  quitCleanly(app, async () => (await running.host?.catch(() => null))?.shutdown(), {
    onError: (e) => warn(`Quitting: ${e instanceof Error ? e.message : String(e)}`),
  })
  quitOnSignals(app)
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })
}

/** Once ready: the session, the app: protocol, the engine, IPC, the menu, the shell and the window. */
async function startApp(o: RunAppOptions, launch: Launch, running: Running): Promise<void> {
  hardenSession(session.defaultSession)
  const files = appFiles(app.getAppPath())
  handleAppProtocol(protocol, files.renderer, async () =>
    running.host ? ((await running.host.catch(() => null))?.views ?? null) : null,
  )
  const storeOpts = o.createStore ? { createStore: o.createStore } : {}
  const settings = openSettings(launch.dataDir, { onWarning: warn, ...storeOpts })
  const pageUrl = launch.devUrl ?? APP_INDEX_URL
  let openWindow: (hash?: string) => BrowserWindow = () => {
    throw new Error('The window opens once the engine is ready.')
  }
  const shell = new Shell({
    settings,
    preload: files.preload,
    pageUrl,
    iconPath: trayIconPath({
      isPackaged: app.isPackaged,
      appPath: app.getAppPath(),
      resourcesPath: process.resourcesPath,
    }),
    load: (win, url) => void loadMainPage(win, url, warn),
    events: (win) =>
      void running.host?.then(({ hub }) => forwardEvents(win.webContents, hub, launch.origins)),
    mainWindow: (hash) => {
      const win = running.window
      if (!win || win.isDestroyed()) return openWindow(hash ?? undefined)
      if (hash !== null) void win.loadURL(`${pageUrl}${hash}`).catch(() => {})
      return win
    },
    warn,
  })
  running.shell = shell
  const hostOptions = { ...hostOptionsFor(o, launch, () => running.window), desktop: shell }
  running.host = openWithRecovery(() => o.createHost(hostOptions), {
    dataDir: launch.dataDir,
    ask: (options) => dialog.showMessageBox(options),
    warn,
  })
  const { router, hub } = await running.host
  handleRequests(ipcMain, router, launch.origins)
  installMenu(launch.dataDir, app.isPackaged)
  openWindow = windowOpener({ launch, running, settings, pageUrl, preload: files.preload, hub })
  openWindow()
  shell.start()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) openWindow()
  })
}

/** The engine's options: the data, the keychain, the native binding and the native dialogs. */
function hostOptionsFor(
  o: RunAppOptions,
  launch: Launch,
  window: () => BrowserWindow | null,
): AppHostOptions {
  const mcpConfigFile = argValue(launch.argv, 'mcp-config')
  return {
    dataDir: launch.dataDir,
    hostKind: 'electron',
    version: app.getVersion(),
    env: launch.env,
    ...(mcpConfigFile !== undefined ? { mcpConfigFile } : {}),
    secretsCodec: safeStorageCodec(safeStorage, warn),
    nativeBinding: findNativeBinding({
      isPackaged: app.isPackaged,
      appPath: app.getAppPath(),
      resourcesPath: process.resourcesPath,
    }),
    ...(o.createStore ? { settingsStoreFactory: o.createStore } : {}),
    onWarning: warn,
    confirmCommand: nativeCommandConsent(dialog, window),
    openAuthorization: nativeLoginOpener(dialog, shell, window),
    dialogs: nativeDialogs(dialog, window),
    confirmNewDatabase: nativeNewDatabaseConsent(dialog, window),
    localRuntimeLauncher: utilityRuntimeLauncher(utilityProcess, runtimeScript(app.getAppPath())),
  }
}

interface WindowOpenerDeps {
  launch: Launch
  running: Running
  settings: SettingsStore
  pageUrl: string
  preload: string
  hub: AppHost['hub']
}

/**
 * Opens the main window where it was last (its bounds saved when it closes and when the
 * app quits), its page fed by the hub's events, at `hash` when given; closing it hides it
 * in the tray or quits (the shell decides).
 */
function windowOpener(d: WindowOpenerDeps): (hash?: string) => BrowserWindow {
  const { running, settings } = d
  // when the window closes or the app quits: written before the process may exit
  const saveBounds = (bounds: WindowBounds): void => {
    try {
      settings.updateSync((s) => void (s.window = bounds))
    } catch (e) {
      warn(`The window's size was not saved: ${(e as Error).message}`)
    }
  }
  // quitting from the menu exits without closing the window: remember its bounds first
  app.on('before-quit', () => running.window && saveWindowBounds(running.window, saveBounds))
  return (hash) => {
    const win = createMainWindow({ preload: d.preload, saved: settings.get().window, saveBounds })
    running.shell?.watchClose(win)
    win.on('closed', () => {
      if (running.window === win) running.window = null
    })
    forwardEvents(win.webContents, d.hub, d.launch.origins)
    void loadMainPage(win, `${d.pageUrl}${hash ?? ''}`, warn)
    running.window = win
    return win
  }
}
