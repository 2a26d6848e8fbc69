/**
 * A small stand-in for the `electron` module (the binary cannot run here). Tests use it
 * with `vi.mock('electron', () => import('./electron-mock'))` and inspect the objects below;
 * `resetElectron()` gives every test a fresh app.
 */
import { fork as nodeFork } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { vi } from 'vitest'

type Handler = (...args: never[]) => unknown

export class FakeWebContents extends EventEmitter {
  url = ''
  destroyed = false
  windowOpenHandler: ((d: { url: string }) => { action: string }) | null = null
  send = vi.fn()
  isDestroyed = (): boolean => this.destroyed
  getURL = (): string => this.url
  setWindowOpenHandler = (h: (d: { url: string }) => { action: string }): void => {
    this.windowOpenHandler = h
  }
  loadURL = vi.fn(async (url: string) => {
    this.url = url
  })
  destroy(): void {
    this.destroyed = true
    this.emit('destroyed')
  }
}

export class BrowserWindow extends EventEmitter {
  static instances: BrowserWindow[] = []
  static getAllWindows = (): BrowserWindow[] => BrowserWindow.instances.filter((w) => !w.closed)
  readonly webContents = new FakeWebContents()
  closed = false
  minimized = false
  bounds = { x: 10, y: 20, width: 1000, height: 700 }
  visible = false
  focused = false
  show = vi.fn(() => void (this.visible = true))
  hide = vi.fn(() => void Object.assign(this, { visible: false, focused: false }))
  focus = vi.fn(() => void (this.focused = true))
  isVisible = (): boolean => this.visible
  isFocused = (): boolean => this.focused
  /** like Electron: `close` may be prevented; otherwise the window goes (`closed`) */
  close = (): void => {
    let prevented = false
    this.emit('close', { preventDefault: () => void (prevented = true) })
    if (prevented) return
    this.closed = true
    this.emit('closed')
  }
  restore = vi.fn(() => void (this.minimized = false))
  constructor(readonly options: Record<string, unknown>) {
    super()
    BrowserWindow.instances.push(this)
  }
  loadURL = (url: string): Promise<void> => this.webContents.loadURL(url)
  isDestroyed = (): boolean => this.closed
  isMinimized = (): boolean => this.minimized
  getNormalBounds = (): typeof this.bounds => ({ ...this.bounds })
}

class FakeApp extends EventEmitter {
  isPackaged = false
  appPath = '/nonexistent'
  gotLock = true
  paths = new Map<string, string>()
  getAppPath = (): string => this.appPath
  getVersion = (): string => '0.0.0-test'
  preferredLanguages = ['en-US']
  getPreferredSystemLanguages = (): string[] => this.preferredLanguages
  setName = vi.fn()
  setPath = vi.fn((name: string, p: string) => void this.paths.set(name, p))
  getPath = (name: string): string => this.paths.get(name) ?? `/fake/${name}`
  requestSingleInstanceLock = vi.fn(() => this.gotLock)
  whenReady = vi.fn(async () => {})
  /** like Electron: quitting starts with `before-quit`, which a listener may cancel */
  quit = vi.fn(() => {
    let prevented = false
    this.emit('before-quit', { preventDefault: () => void (prevented = true) })
    return prevented
  })
  exit = vi.fn()
}

export const app = new FakeApp()

export const ipcMain = {
  handlers: new Map<string, Handler>(),
  handle: vi.fn((channel: string, h: Handler) => void ipcMain.handlers.set(channel, h)),
  removeHandler: vi.fn((channel: string) => void ipcMain.handlers.delete(channel)),
}

export const protocol = {
  handlers: new Map<string, (req: Request) => Promise<Response>>(),
  registerSchemesAsPrivileged: vi.fn(),
  handle: vi.fn(
    (scheme: string, h: (req: Request) => Promise<Response>) =>
      void protocol.handlers.set(scheme, h),
  ),
}

export function fakeSession() {
  const s = {
    permissionRequest: null as Handler | null,
    permissionCheck: null as Handler | null,
    devicePermission: null as Handler | null,
    headersReceived: null as Handler | null,
    setPermissionRequestHandler: (h: Handler) => void (s.permissionRequest = h),
    setPermissionCheckHandler: (h: Handler) => void (s.permissionCheck = h),
    setDevicePermissionHandler: (h: Handler) => void (s.devicePermission = h),
    webRequest: { onHeadersReceived: (h: Handler) => void (s.headersReceived = h) },
  }
  return s
}

export const session = { defaultSession: fakeSession() }

export const shell = { openExternal: vi.fn(async () => {}), openPath: vi.fn(async () => '') }

export const safeStorage = {
  available: true,
  backend: 'gnome_libsecret' as string,
  isEncryptionAvailable: vi.fn(() => safeStorage.available),
  encryptString: vi.fn((s: string) => Buffer.from(`sealed(${s})`).reverse()),
  decryptString: vi.fn((b: Buffer) => {
    const text = Buffer.from(b).reverse().toString()
    const m = /^sealed\((.*)\)$/s.exec(text)
    if (!m)
      throw new Error(
        'Error while decrypting the ciphertext provided to safeStorage.decryptString.',
      )
    return m[1]!
  }),
  getSelectedStorageBackend: vi.fn(() => safeStorage.backend),
}

export const Menu = {
  buildFromTemplate: vi.fn((template: unknown) => ({ template })),
  setApplicationMenu: vi.fn(),
}

export const dialog = {
  showErrorBox: vi.fn(),
  showMessageBox: vi.fn(async () => ({})),
  showOpenDialog: vi.fn(async (..._a: unknown[]) => ({
    canceled: true,
    filePaths: [] as string[],
  })),
  showSaveDialog: vi.fn(async (..._a: unknown[]) => ({ canceled: true, filePath: '' })),
}

export const screen = {
  getAllDisplays: vi.fn(() => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]),
}

/**
 * `utilityProcess.fork`, as a real Node child process behind the utility process's API
 * (`postMessage`, `message`, `exit` with a code, `kill()`), so the launcher runs for real.
 */
export const utilityProcess = {
  forks: [] as { script: string; options: unknown }[],
  fork: vi.fn((script: string, args: string[] = [], options: { env?: NodeJS.ProcessEnv } = {}) => {
    utilityProcess.forks.push({ script, options })
    const child = nodeFork(script, args, {
      stdio: ['ignore', 'ignore', 'ignore', 'ipc'],
      serialization: 'json',
      ...(options.env ? { env: options.env } : {}),
    })
    const proc = Object.assign(new EventEmitter(), {
      pid: child.pid,
      postMessage: (m: unknown) => void (child.connected && child.send(m as object)),
      kill: () => child.kill('SIGKILL'),
    })
    child.on('message', (m) => proc.emit('message', m))
    child.on('exit', (code) => proc.emit('exit', code ?? 1))
    return proc
  }),
}

export class Tray extends EventEmitter {
  static instances: Tray[] = []
  tooltip = ''
  menu: { template: { label?: string; type?: string; click?: () => void }[] } | null = null
  constructor(readonly image: unknown) {
    super()
    Tray.instances.push(this)
  }
  setToolTip = vi.fn((t: string) => void (this.tooltip = t))
  setContextMenu = vi.fn((m: Tray['menu']) => void (this.menu = m))
  destroy = vi.fn()
}

export const nativeImage = {
  createFromPath: vi.fn((path: string) => ({
    path,
    resize: (size: { width: number; height: number }) => ({ path, ...size }),
  })),
}

/** Electron's globalShortcut: `heldByOthers` are accelerators another app has taken */
export const globalShortcut = {
  heldByOthers: new Set<string>(),
  held: new Map<string, () => void>(),
  register: vi.fn((accelerator: string, callback: () => void): boolean => {
    if (globalShortcut.heldByOthers.has(accelerator) || globalShortcut.held.has(accelerator))
      return false
    globalShortcut.held.set(accelerator, callback)
    return true
  }),
  unregister: vi.fn((accelerator: string) => void globalShortcut.held.delete(accelerator)),
  isRegistered: vi.fn((accelerator: string) => globalShortcut.held.has(accelerator)),
  /** what pressing the keys does */
  press(accelerator: string): void {
    globalShortcut.held.get(accelerator)?.()
  },
}

export const contextBridge = { exposeInMainWorld: vi.fn() }

export const ipcRenderer = Object.assign(new EventEmitter(), {
  invoke: vi.fn(async (..._args: unknown[]): Promise<unknown> => ({ ok: true, data: null })),
})

export function resetElectron(): void {
  app.removeAllListeners()
  Object.assign(app, {
    isPackaged: false,
    appPath: '/nonexistent',
    gotLock: true,
    preferredLanguages: ['en-US'],
  })
  Tray.instances = []
  globalShortcut.heldByOthers.clear()
  globalShortcut.held.clear()
  app.paths.clear()
  BrowserWindow.instances = []
  ipcMain.handlers.clear()
  protocol.handlers.clear()
  session.defaultSession = fakeSession()
  safeStorage.available = true
  safeStorage.backend = 'gnome_libsecret'
  vi.clearAllMocks()
}

export default {
  app,
  utilityProcess,
  BrowserWindow,
  ipcMain,
  protocol,
  session,
  shell,
  safeStorage,
  Menu,
  dialog,
  screen,
  contextBridge,
  ipcRenderer,
  Tray,
  nativeImage,
  globalShortcut,
}
