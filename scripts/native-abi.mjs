/**
 * Which ABI a native Node module was built for, and which one an Electron version needs.
 *
 * A module built against V8 directly (better-sqlite3 is one) exports one function named
 * `node_register_module_v<ABI>`; Node and Electron refuse to load it under another ABI.
 * The name is plain text in the binary (ELF, Mach-O with a leading `_`, or a PE export),
 * so reading the file is enough: no need to load it.
 */
import { readFileSync } from 'node:fs'
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
