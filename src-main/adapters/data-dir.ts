/**
 * Where Cairn keeps its data. The desktop app, browser mode and the CLI share one
 * directory: `--data-dir`, else `CAIRN_DATA_DIR`, else the desktop app's `userData`.
 */
import fs from 'node:fs'
import { homedir } from 'node:os'
import path from 'node:path'

/** The desktop app's productName: Electron names `userData` after it. */
export const PRODUCT_NAME = 'Cairn'

export interface ResolveDataDirOptions {
  /** the `--data-dir` flag */
  flag?: string
  env?: NodeJS.ProcessEnv
  /** for tests: defaults to the running platform, home directory and working directory */
  platform?: NodeJS.Platform
  home?: string
  cwd?: string
}

function expandHome(p: string, home: string): string {
  if (p === '~') return home
  if (p.startsWith('~/') || p.startsWith('~\\')) return path.join(home, p.slice(2))
  return p
}

/** The directory Electron uses as `userData` for productName `Cairn`. */
export function desktopDataDir(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'win32') {
    const appData = env['APPDATA'] || path.win32.join(home, 'AppData', 'Roaming')
    return path.win32.join(appData, PRODUCT_NAME)
  }
  if (platform === 'darwin') {
    return path.posix.join(home, 'Library', 'Application Support', PRODUCT_NAME)
  }
  const config = env['XDG_CONFIG_HOME'] || path.posix.join(home, '.config')
  return path.posix.join(config, PRODUCT_NAME)
}

/** `--data-dir`, else `CAIRN_DATA_DIR`, else the desktop app's data directory. Absolute. */
export function resolveDataDir(opts: ResolveDataDirOptions = {}): string {
  const env = opts.env ?? process.env
  const home = opts.home ?? homedir()
  const platform = opts.platform ?? process.platform
  const explicit = opts.flag?.trim() || env['CAIRN_DATA_DIR']?.trim()
  if (explicit) {
    const impl = platform === 'win32' ? path.win32 : path.posix
    return impl.resolve(opts.cwd ?? process.cwd(), expandHome(explicit, home))
  }
  return desktopDataDir(platform, env, home)
}

const SESSION_ID = /^[A-Za-z0-9_-]{1,128}$/

/** Session ids become directory names: only `[A-Za-z0-9_-]`, so no path can escape. */
export function assertSessionId(sessionId: string): string {
  if (typeof sessionId !== 'string' || !SESSION_ID.test(sessionId)) {
    throw new Error(
      `Invalid session id ${JSON.stringify(sessionId)}: only letters, digits, "_" and "-" are allowed`,
    )
  }
  return sessionId
}

export interface DataPaths {
  root: string
  /** sessions, messages, search index (SQLite) */
  db: string
  settings: string
  secrets: string
  /** each model's learned characters per token */
  calibration: string
  /** `<dataDir>/logs` */
  logsRoot: string
  /** `<dataDir>/logs/sessions/<id>`; throws on an id that is not `[A-Za-z0-9_-]+` */
  sessionLogs(sessionId: string): string
}

export function dataPaths(dataDir: string): DataPaths {
  const root = path.resolve(dataDir)
  const logsRoot = path.join(root, 'logs')
  return {
    root,
    db: path.join(root, 'cairn.db'),
    settings: path.join(root, 'settings.json'),
    secrets: path.join(root, 'secrets.json'),
    calibration: path.join(root, 'token-calibration.json'),
    logsRoot,
    sessionLogs: (sessionId) => path.join(logsRoot, 'sessions', assertSessionId(sessionId)),
  }
}

/** Folders of the data directory: only their owner may list or enter them. */
export const PRIVATE_DIR_MODE = 0o700
/** Files of the data directory (database, WAL, settings, secrets, logs, token): owner only. */
export const PRIVATE_FILE_MODE = 0o600

/**
 * What Cairn keeps at the top of the data directory (with their temp files, locks, backups
 * and copies set aside). Only these are touched: `--data-dir` may name a folder that holds
 * other things too.
 */
const OWN_FILE =
  /^\.?(cairn\.db|settings\.json|secrets\.json|token-calibration\.json|web-token|web-open\.html|mcp-processes\.json)/
const OWN_DIRS = new Set(['logs'])

/**
 * Cairn's own lock files (`settings.json.lock`, …): made private, but a readable one is no
 * news (an older Cairn made them so, and another process may hold one right now).
 */
const LOCK_FILE = /\.lock$/

/**
 * Creates the data directory (mode 700) and narrows what Cairn keeps in it when others could
 * read or write it: folders to 700, files to 600 (symbolic links are left alone, never
 * followed). Returns the paths it changed, lock files left out. POSIX only: on Windows, files
 * under `%APPDATA%` inherit the user profile's access list, which already excludes other
 * users; nothing is changed there.
 */
export function securePrivateDataDir(dataDir: string): string[] {
  const root = path.resolve(dataDir)
  fs.mkdirSync(root, { recursive: true, mode: PRIVATE_DIR_MODE })
  if (process.platform === 'win32') return []
  const fixed: string[] = []
  const narrow = (p: string, stat: fs.Stats): void => {
    const want = stat.isDirectory() ? PRIVATE_DIR_MODE : PRIVATE_FILE_MODE
    if ((stat.mode & 0o077) === 0) return
    try {
      fs.chmodSync(p, (stat.mode & 0o700) | (want & 0o700))
      if (!LOCK_FILE.test(p)) fixed.push(p)
    } catch {
      // not ours (another user's file in a shared folder): nothing we can do
    }
  }
  const walk = (
    dir: string,
    depth: number,
    ours?: (name: string, stat: fs.Stats) => boolean,
  ): void => {
    let names: string[]
    try {
      names = fs.readdirSync(dir)
    } catch {
      return
    }
    for (const name of names) {
      const p = path.join(dir, name)
      let stat: fs.Stats
      try {
        stat = fs.lstatSync(p)
      } catch {
        continue
      }
      if (stat.isSymbolicLink() || (ours && !ours(name, stat))) continue
      if (stat.isDirectory() || stat.isFile()) narrow(p, stat)
      if (stat.isDirectory() && depth < 8) walk(p, depth + 1)
    }
  }
  narrow(root, fs.lstatSync(root))
  walk(root, 0, (name, stat) => (stat.isDirectory() ? OWN_DIRS.has(name) : OWN_FILE.test(name)))
  return fixed
}
