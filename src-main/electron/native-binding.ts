/**
 * better-sqlite3 built for Electron's ABI lives apart from the Node build in node_modules
 * (which the tests and the CLI use): `scripts/electron-native.mjs` builds it into
 * `.electron-native/`, and electron-builder copies the binary to `resources/native/`.
 */
import { existsSync } from 'node:fs'
import { join } from 'node:path'

/** relative to the project (development) */
export const DEV_BINDING = join(
  '.electron-native',
  'better-sqlite3',
  'build',
  'Release',
  'better_sqlite3.node',
)
/** relative to `process.resourcesPath` (packaged: electron-builder's extraResources) */
export const PACKAGED_BINDING = join('native', 'better_sqlite3.node')

export interface BindingLocation {
  isPackaged: boolean
  appPath: string
  resourcesPath: string
}

export function nativeBindingPath(at: BindingLocation): string {
  return at.isPackaged ? join(at.resourcesPath, PACKAGED_BINDING) : join(at.appPath, DEV_BINDING)
}

/** The path of the Electron build of better-sqlite3; throws with what to do when it is missing. */
export function findNativeBinding(at: BindingLocation, exists = existsSync): string {
  const path = nativeBindingPath(at)
  if (exists(path)) return path
  throw new Error(
    at.isPackaged
      ? `This installation of Cairn is incomplete: ${path} is missing. Please reinstall Cairn.`
      : `better-sqlite3 has not been built for Electron (${path} is missing). Run: node scripts/electron-native.mjs`,
  )
}
