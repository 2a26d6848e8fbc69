/**
 * Which ABI a native Node module was built for, and which one an Electron version needs.
 *
 * A module built against V8 directly (better-sqlite3 is one) exports one function named
 * `node_register_module_v<ABI>`; Node and Electron refuse to load it under another ABI.
 * The name is plain text in the binary (ELF, Mach-O with a leading `_`, or a PE export),
 * so reading the file is enough: no need to load it.
 */
import { closeSync, openSync, readFileSync, readSync } from 'node:fs'
import { createRequire } from 'node:module'

/** Electron major → NODE_MODULE_VERSION, for when node-abi cannot be loaded. */
export const ELECTRON_ABI = { 35: 133, 36: 135, 37: 136, 38: 139, 39: 140, 40: 143, 41: 145 }

/**
 * The ABIs named by the `node_register_module_vNNN` symbols of a binary (usually one),
 * sorted; empty when the file is not such a module (an N-API module or not a module).
 */
export function moduleAbis(file) {
  const text = readFileSync(file).toString('latin1')
  const found = new Set()
  for (const m of text.matchAll(/node_register_module_v(\d+)/g)) found.add(Number(m[1]))
  return [...found].sort((a, b) => a - b)
}

/** The ABI an Electron version's modules need: node-abi's registry, else the table above. */
export function electronAbi(version) {
  try {
    const require = createRequire(import.meta.url)
    const abi = Number(require('node-abi').getAbi(version, 'electron'))
    if (Number.isInteger(abi) && abi > 0) return abi
  } catch {
    // node-abi missing or does not know this version: fall back to the table
  }
  const major = Number(String(version).replace(/^v/, '').split('.')[0])
  const abi = ELECTRON_ABI[major]
  if (!abi) {
    throw new Error(
      `The ABI of Electron ${version} is not known here: add it to ELECTRON_ABI in scripts/native-abi.mjs.`,
    )
  }
  return abi
}

/**
 * Null when `file` is a native module for `wantedAbi`, else why not (one sentence). `what` names the runtime in the message, e.g. "Electron 39.8.10".
 */
export function abiMismatch(file, wantedAbi, what) {
  let abis
  try {
    abis = moduleAbis(file)
  } catch (e) {
    return `${file} cannot be read: ${e?.code ?? e?.message ?? e}.`
  }
  if (abis.length === 0) {
    return `${file} is not a native Node module built for an ABI (no node_register_module_v symbol).`
  }
  if (abis.length === 1 && abis[0] === wantedAbi) return null
  const node = abis.includes(Number(process.versions.modules))
    ? ` (the ABI of this Node, ${process.version}: it was built with Node's headers)`
    : ''
  return `${file} was built for ABI ${abis.join(', ')}${node}, but ${what} needs ABI ${wantedAbi}.`
}

const ELF_MACHINES = { 0x03: 'ia32', 0x28: 'armv7l', 0x3e: 'x64', 0xb7: 'arm64' }
const MACHO_CPUS = { 0x07: 'ia32', 0x01000007: 'x64', 0x0c: 'armv7l', 0x0100000c: 'arm64' }
const PE_MACHINES = { 0x014c: 'ia32', 0x8664: 'x64', 0x01c4: 'armv7l', 0xaa64: 'arm64' }

/**
 * The CPU architecture of a shared library, in Node's names (`x64`, `arm64`, `ia32`,
 * `armv7l`), `universal` for a macOS fat binary, or null when it is none of these.
 * Read from the header: ELF's e_machine, Mach-O's cputype, PE's Machine.
 */
export function binaryArch(file) {
  const fd = openSync(file, 'r')
  try {
    const head = Buffer.alloc(64)
    readSync(fd, head, 0, 64, 0)
    if (head.readUInt32BE(0) === 0x7f454c46) {
      const machine = head[5] === 2 ? head.readUInt16BE(18) : head.readUInt16LE(18)
      return ELF_MACHINES[machine] ?? null
    }
    if (head.readUInt32BE(0) === 0xcafebabe) return 'universal'
    if (head.readUInt32LE(0) === 0xfeedfacf || head.readUInt32LE(0) === 0xfeedface) {
      return MACHO_CPUS[head.readUInt32LE(4)] ?? null
    }
    if (head.toString('latin1', 0, 2) === 'MZ') {
      const pe = Buffer.alloc(6)
      readSync(fd, pe, 0, 6, head.readUInt32LE(0x3c))
      if (pe.toString('latin1', 0, 4) !== 'PE\0\0') return null
      return PE_MACHINES[pe.readUInt16LE(4)] ?? null
    }
    return null
  } finally {
    closeSync(fd)
  }
}
