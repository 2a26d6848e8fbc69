/**
 * Where the desktop app finds its own files (the built preload and renderer) and where it
 * keeps the user's data: `--data-dir <dir>`, else `CAIRN_DATA_DIR`, else `~/.config/Cairn`
 * (the same directory the CLI and browser mode use).
 */
import { join } from 'node:path'
import { resolveDataDir } from '../adapters/data-dir'

/** `--name value` or `--name=value` anywhere on the command line (the last one wins). */
export function argValue(argv: readonly string[], name: string): string | undefined {
  let found: string | undefined
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]
    if (arg === `--${name}`) {
      const next = argv[i + 1]
      if (next !== undefined && !next.startsWith('--')) found = next
    } else if (arg?.startsWith(`--${name}=`)) {
      found = arg.slice(name.length + 3)
    }
  }
  return found
}

/**
 * The data directory for this launch. Always absolute; the default is the directory
 * Electron would name after productName `Cairn`, computed the same way as the CLI does,
 * so that a development run (whose package name is `cairn`) uses the same folder.
 */
export function appDataDir(argv: readonly string[], env: NodeJS.ProcessEnv): string {
  const flag = argValue(argv, 'data-dir')
  return resolveDataDir({ env, ...(flag !== undefined ? { flag } : {}) })
}

/** The built app's files, relative to `app.getAppPath()` (the project, or app.asar). */
export function appFiles(appPath: string): { preload: string; renderer: string } {
  return {
    preload: join(appPath, 'out', 'preload', 'index.cjs'),
    renderer: join(appPath, 'out', 'renderer'),
  }
}

/** The tray's icon: `resources/icon.png`, which packaging copies into the app's resources. */
export function trayIconPath(o: {
  isPackaged: boolean
  appPath: string
  resourcesPath: string
}): string {
  return o.isPackaged ? join(o.resourcesPath, 'icon.png') : join(o.appPath, 'resources', 'icon.png')
}
