/** Types of scripts/after-pack.mjs, for the tests. */
export interface PackContextLike {
  appOutDir: string
  packager: {
    getResourcesDir(appOutDir: string): string
    info?: { framework?: { version?: string } }
  }
}
export function checkPackedBinding(resourcesDir: string, electronVersion: string): string | null
export function afterPack(context: PackContextLike): Promise<void>
export default afterPack
