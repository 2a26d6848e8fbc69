/**
 * electron-builder's afterPack hook (electron-builder.yml): the packaged app must hold
 * better-sqlite3 built for the Electron it ships, at <resources>/native/better_sqlite3.node
 * (where src-main/electron/native-binding.ts looks). A missing file, one built for another
 * ABI (for Node, say) or for another CPU (packaging arm64 on an x64 machine) fails the
 * packaging here instead of the app at its first start on a user's machine.
 */
import { join } from 'node:path'
import { wantedBuild } from './electron-native.mjs'
import { abiMismatch, binaryArch, electronAbi } from './native-abi.mjs'

/** electron-builder's Arch enum (builder-util), in Node's names */
const ARCH_NAMES = ['ia32', 'x64', 'armv7l', 'arm64', 'universal']

/**
 * Null when the packed resources folder holds a binary for `electronVersion` (and for
 * `arch`, a Node arch name, when given), else why not.
 */
export function checkPackedBinding(resourcesDir, electronVersion, arch) {
  const binding = join(resourcesDir, 'native', 'better_sqlite3.node')
  const wrongAbi = abiMismatch(binding, electronAbi(electronVersion), `Electron ${electronVersion}`)
  if (wrongAbi || !arch) return wrongAbi
  const built = binaryArch(binding)
  return built === arch
    ? null
    : `${binding} is built for ${built ?? 'an unknown CPU'}, but the app is ${arch}.`
}

export async function afterPack(context) {
  const resources = context.packager.getResourcesDir(context.appOutDir)
  const electron = context.packager.info?.framework?.version ?? wantedBuild().electron
  const arch = typeof context.arch === 'number' ? ARCH_NAMES[context.arch] : context.arch
  const why = checkPackedBinding(resources, electron, arch)
  if (why) {
    throw new Error(
      `The packaged app cannot open its database: ${why}\n` +
        'Build it for Electron with: node scripts/electron-native.mjs --force, then package again.',
    )
  }
  console.log(`  • afterPack: better-sqlite3 is built for Electron ${electron} (${arch ?? '?'})`)
}

export default afterPack
