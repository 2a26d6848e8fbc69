/**
 * electron-builder's afterPack hook (electron-builder.yml): the packaged app must hold
 * better-sqlite3 built for the Electron it ships, at <resources>/native/better_sqlite3.node
 * (where src-main/electron/native-binding.ts looks). A missing file or one built for
 * another ABI (for Node, say) fails the packaging here instead of the app at its first
 * start on a user's machine.
 */
import { join } from 'node:path'
import { wantedBuild } from './electron-native.mjs'
import { abiMismatch, electronAbi } from './native-abi.mjs'

/** Null when the packed resources folder holds a binary for `electronVersion`, else why not. */
export function checkPackedBinding(resourcesDir, electronVersion) {
  const binding = join(resourcesDir, 'native', 'better_sqlite3.node')
  return abiMismatch(binding, electronAbi(electronVersion), `Electron ${electronVersion}`)
}

export async function afterPack(context) {
  const resources = context.packager.getResourcesDir(context.appOutDir)
  const electron = context.packager.info?.framework?.version ?? wantedBuild().electron
  const why = checkPackedBinding(resources, electron)
  if (why) {
    throw new Error(
      `The packaged app cannot open its database: ${why}\n` +
        'Build it for Electron with: node scripts/electron-native.mjs --force, then package again.',
    )
  }
  console.log(`  • afterPack: better-sqlite3 is built for Electron ${electron}`)
}

export default afterPack
