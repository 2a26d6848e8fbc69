import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The Node build of better-sqlite3 that the tests use: a real module for the wrong runtime. */
export const RELEASE = join(process.cwd(), 'node_modules', 'better-sqlite3', 'build', 'Release')
export const NODE_BUILD = join(RELEASE, 'better_sqlite3.node')
export const NODE_ABI = Number(process.versions.modules)

/**
 * The bytes of the real Node build with its register symbol renamed to another ABI of the
 * same length (`node_register_module_v115` → `…v140`): what an Electron build looks like
 * to a reader of the file.
 */
export function bytesWithAbi(abi: number): Buffer {
  const bytes = readFileSync(NODE_BUILD)
  const from = Buffer.from(`node_register_module_v${NODE_ABI}`, 'latin1')
  const to = Buffer.from(`node_register_module_v${abi}`, 'latin1')
  if (to.length !== from.length) throw new Error(`ABI ${abi} is not as long as ${NODE_ABI}`)
  let at = bytes.indexOf(from)
  if (at < 0) throw new Error(`${NODE_BUILD} has no ${from.toString()}`)
  while (at >= 0) {
    to.copy(bytes, at)
    at = bytes.indexOf(from, at + 1)
  }
  return bytes
}

/** A file holding bytesWithAbi(abi), in a fresh temporary folder. */
export function binaryWithAbi(abi: number): string {
  const file = join(mkdtempSync(join(tmpdir(), 'cairn-abi-')), 'better_sqlite3.node')
  writeFileSync(file, bytesWithAbi(abi))
  return file
}
