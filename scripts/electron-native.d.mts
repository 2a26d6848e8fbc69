/** Types of scripts/electron-native.mjs, for the tests. */
export interface WantedBuild {
  electron: string
  betterSqlite3: string
  platform: string
  arch: string
}
export const OUT_DIR: string
export const MODULE_DIR: string
export const BINDING: string
export const STAMP: string
export function wantedBuild(opts?: {
  nodeModules?: string
  platform?: string
  arch?: string
}): WantedBuild
export function readStamp(file?: string): Record<string, unknown> | null
export function isUpToDate(
  stamp: Record<string, unknown> | null,
  wanted: WantedBuild,
  bindingExists: boolean,
): boolean
/** npm/node-gyp config names that choose the build target; cleared for the Electron build */
export const TARGET_CONFIG: string[]
export function clearInheritedTarget(env?: Record<string, string | undefined>): string[]
/** null when the binary is the wanted build (stamp and ABI), else why to build */
export function whyRebuild(
  stamp: Record<string, unknown> | null,
  wanted: WantedBuild,
  binding: string,
): string | null
export function electronBinary(nodeModules?: string): string | null
export function missingBuildTools(
  has?: (cmd: string) => boolean,
  platform?: NodeJS.Platform,
): string | null
/** what `npm start` says when the Electron binary is not installed */
export const MISSING_BINARY: string
export function main(
  argv?: string[],
  opts?: {
    electronBinary?: () => string | null
    /** build in this folder instead of .electron-native/ (tests) */
    outDir?: string
    /** instead of @electron/rebuild's rebuild (tests) */
    rebuild?: (options: { buildPath: string; electronVersion: string }) => Promise<void>
  },
): Promise<void>
