/** Types of scripts/after-pack.mjs, for the tests. */
export interface PackContextLike {
  appOutDir: string
  /** electron-builder's Arch enum (0 ia32, 1 x64, 2 armv7l, 3 arm64, 4 universal) */
  arch?: number
  packager: {
    getResourcesDir(appOutDir: string): string
    info?: { framework?: { version?: string } }
  }
}
export function checkPackedBinding(
  resourcesDir: string,
  electronVersion: string,
  arch?: string,
): string | null
export function afterPack(context: PackContextLike): Promise<void>
export default afterPack
