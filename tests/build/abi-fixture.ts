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

/** ELF e_machine values, for bytes that claim another CPU */
export const ELF_MACHINE = { x64: 0x3e, arm64: 0xb7 } as const

/** `bytes` (a little-endian ELF file) with its e_machine set to `machine`. */
export function withElfMachine(bytes: Buffer, machine: number): Buffer {
  const copy = Buffer.from(bytes)
  if (copy.readUInt32BE(0) !== 0x7f454c46 || copy[5] !== 1)
    throw new Error('not a little-endian ELF')
  copy.writeUInt16LE(machine, 18)
  return copy
}
