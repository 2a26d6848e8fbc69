#!/usr/bin/env node
/**
 * Builds better-sqlite3 for Electron's ABI, apart from the Node build in node_modules
 * (which the tests and the CLI keep using):
 *
 *   node_modules/better-sqlite3  →  copied to  .electron-native/better-sqlite3
 *   @electron/rebuild on the copy, for the installed Electron version
 *   →  .electron-native/better-sqlite3/build/Release/better_sqlite3.node
 *
 * The main process loads that file through better-sqlite3's `nativeBinding` option
 * (electron-builder copies it to resources/native/ in a packaged app). Skipped when the
 * build is already there for this Electron version, platform and arch, and its
 * `node_register_module_vNNN` symbol names the ABI that Electron version needs.
 *
 * Run by npm (`npm start`, `npm run dist`), the environment carries npm's config as
 * `npm_config_*` variables, and node-gyp takes `nodedir`, `target`, `runtime`… from them:
 * with `nodedir` set it builds against this Node's headers (ABI 115 for Node 20) whatever
 * Electron needs. Those target variables are cleared for the build, and the built file's
 * ABI is checked before it is stamped.
 *
 * Usage: node scripts/electron-native.mjs [--force] [--require-binary]
 *   --require-binary  fail unless the Electron binary itself is installed (npm start/dev)
 */
import { spawnSync } from 'node:child_process'
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, sep } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { abiMismatch, electronAbi } from './native-abi.mjs'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
export const OUT_DIR = join(root, '.electron-native')
export const MODULE_DIR = join(OUT_DIR, 'better-sqlite3')
export const BINDING = join(MODULE_DIR, 'build', 'Release', 'better_sqlite3.node')
export const STAMP = join(OUT_DIR, 'stamp.json')

/** Where a build in `outDir` lives (the constants above, for another folder: tests). */
function buildPaths(outDir) {
  const moduleDir = join(outDir, 'better-sqlite3')
  return {
    outDir,
    moduleDir,
    binding: join(moduleDir, 'build', 'Release', 'better_sqlite3.node'),
    stamp: join(outDir, 'stamp.json'),
  }
}

/** What the build must match: the versions of Electron and better-sqlite3, platform, arch. */
export function wantedBuild(opts = {}) {
  const modules = opts.nodeModules ?? join(root, 'node_modules')
  return {
    electron: readVersion(join(modules, 'electron', 'package.json'), 'electron'),
    betterSqlite3: readVersion(join(modules, 'better-sqlite3', 'package.json'), 'better-sqlite3'),
    platform: opts.platform ?? process.platform,
    arch: opts.arch ?? process.arch,
  }
}

function readVersion(file, name) {
  try {
    return JSON.parse(readFileSync(file, 'utf8')).version
  } catch {
    throw new UserError(`${name} is not installed (no ${relative(root, file)}): run npm install.`)
  }
}

/** The stamp written after the last successful build, or null. */
export function readStamp(file = STAMP) {
  try {
    const stamp = JSON.parse(readFileSync(file, 'utf8'))
    return stamp && typeof stamp === 'object' ? stamp : null
  } catch {
    return null
  }
}

/** Up to date: the binary exists and was built for exactly what is wanted now. */
export function isUpToDate(stamp, wanted, bindingExists) {
  if (!bindingExists || !stamp) return false
  return ['electron', 'betterSqlite3', 'platform', 'arch'].every((k) => stamp[k] === wanted[k])
}

/**
 * Null when the binary at `binding` is the build wanted now (stamp and ABI), else why it
 * must be built: a stamp alone is not believed, the file must name Electron's ABI.
 */
export function whyRebuild(stamp, wanted, binding) {
  if (!isUpToDate(stamp, wanted, existsSync(binding))) return 'not built'
  const wrong = abiMismatch(binding, electronAbi(wanted.electron), `Electron ${wanted.electron}`)
  return wrong ? `${wrong} Building it again.` : null
}

class UserError extends Error {}

/**
 * npm/node-gyp config names (after `npm_config_` or `npm_package_config_node_gyp_`, any
 * case, `-` or `_`) that choose what a native module is built for. Inherited from npm
 * they would build for Node; @electron/rebuild passes Electron's on the command line.
 */
export const TARGET_CONFIG = [
  'nodedir',
  'target',
  'runtime',
  'disturl',
  'dist_url',
  'tarball',
  'arch',
  'target_arch',
  'platform',
  'target_platform',
]

/** Deletes the inherited target variables from `env` (in place); returns their names. */
export function clearInheritedTarget(env = process.env) {
  const cleared = []
  for (const key of Object.keys(env)) {
    const m = /^(?:npm_config_|npm_package_config_node_gyp_)(.+)$/i.exec(key)
    if (m && TARGET_CONFIG.includes(m[1].toLowerCase().replaceAll('-', '_'))) {
      delete env[key]
      cleared.push(key)
    }
  }
  return cleared
}

/** The Electron executable that `npm start` would run, or null when it was not downloaded. */
export function electronBinary(nodeModules = join(root, 'node_modules')) {
  const dir = join(nodeModules, 'electron')
  try {
    const exe = readFileSync(join(dir, 'path.txt'), 'utf8').trim()
    const full = join(dir, 'dist', exe)
    return exe && existsSync(full) ? full : null
  } catch {
    return null
  }
}

function onPath(cmd) {
  const which = process.platform === 'win32' ? 'where' : 'which'
  return spawnSync(which, [cmd], { stdio: 'ignore' }).status === 0
}

/** The tools node-gyp needs when no prebuilt binary can be downloaded (null: all there). */
export function missingBuildTools(has = onPath, platform = process.platform) {
  if (platform === 'win32') return null // Visual Studio is found by node-gyp itself
  const missing = []
  if (!['c++', 'g++', 'clang++'].some(has)) missing.push('a C++ compiler')
  if (!has('make')) missing.push('make')
  if (!['python3', 'python'].some(has)) missing.push('Python 3')
  if (missing.length === 0) return null
  const how =
    platform === 'darwin'
      ? 'xcode-select --install'
      : 'sudo apt-get install build-essential python3 (or your system’s equivalent)'
  return `${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} missing: install with ${how}`
}

function copyModule(at) {
  const src = join(root, 'node_modules', 'better-sqlite3')
  rmSync(at.moduleDir, { recursive: true, force: true })
  mkdirSync(at.outDir, { recursive: true })
  // the Node build (build/) stays behind: what lands in build/ here is Electron's alone
  cpSync(src, at.moduleDir, {
    recursive: true,
    filter: (from) => !(from === join(src, 'build') || from.startsWith(join(src, 'build') + sep)),
  })
}

async function build(wanted, at, rebuildWith) {
  const tools = missingBuildTools()
  if (tools) console.warn(`electron-native: ${tools}. Trying a prebuilt binary first.`)
  rmSync(at.stamp, { force: true })
  copyModule(at)
  const cleared = clearInheritedTarget(process.env)
  if (cleared.length) console.log(`electron-native: ignoring npm's ${cleared.join(', ')}`)
  const rebuild = rebuildWith ?? (await import('@electron/rebuild')).rebuild
  try {
    await rebuild({
      buildPath: at.moduleDir,
      projectRootPath: at.moduleDir, // look for nothing above the copy
      electronVersion: wanted.electron,
      arch: wanted.arch,
      onlyModules: [], // the copy itself, none of its dependencies
      force: true,
    })
  } catch (e) {
    const why = tools ? `\n${tools}.` : ''
    throw new UserError(
      `Could not build better-sqlite3 for Electron ${wanted.electron}: ${e?.message ?? e}${why}\n` +
        'It needs either a prebuilt binary (downloaded from GitHub) or the Electron headers ' +
        '(downloaded from electronjs.org) and a C++ toolchain.',
    )
  }
  if (!existsSync(at.binding)) {
    throw new UserError(`The build finished but ${relative(root, at.binding)} is missing.`)
  }
  const wrong = abiMismatch(at.binding, electronAbi(wanted.electron), `Electron ${wanted.electron}`)
  if (wrong) {
    rmSync(at.binding, { force: true }) // the app must not find a binary it cannot load
    throw new UserError(
      `${wrong} It was removed. Is a variable such as npm_config_nodedir set in the ` +
        'environment some other way (for example by a wrapper script)?',
    )
  }
  writeFileSync(
    at.stamp,
    `${JSON.stringify({ ...wanted, builtAt: new Date().toISOString() }, null, 2)}\n`,
  )
}

/** What `npm start` says without the Electron binary: how to get it, or use browser mode. */
export const MISSING_BINARY =
  'The desktop app cannot start: the Electron binary is not installed (npm install downloads it from GitHub; when it cannot, npm install fails and installs nothing).\n' +
  '  After an install with ELECTRON_SKIP_BINARY_DOWNLOAD=1, download it with:  node node_modules/electron/install.js\n' +
  '  Or use Cairn in your browser instead:  ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm install && npm run web'

export async function main(argv = process.argv.slice(2), opts = {}) {
  const force = argv.includes('--force')
  const binary = opts.electronBinary ?? electronBinary
  if (argv.includes('--require-binary') && !binary()) throw new UserError(MISSING_BINARY)
  const wanted = wantedBuild()
  const at = buildPaths(opts.outDir ?? OUT_DIR)
  const stale = force ? 'forced' : whyRebuild(readStamp(at.stamp), wanted, at.binding)
  if (!stale) {
    console.log(`electron-native: better-sqlite3 is up to date for Electron ${wanted.electron}.`)
    return
  }
  if (stale !== 'forced' && stale !== 'not built') console.log(`electron-native: ${stale}`)
  console.log(
    `electron-native: building better-sqlite3 ${wanted.betterSqlite3} for Electron ${wanted.electron} (${wanted.platform}-${wanted.arch})…`,
  )
  await build(wanted, at, opts.rebuild)
  console.log(`electron-native: done → ${relative(root, at.binding)}`)
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((e) => {
    console.error(`electron-native: ${e instanceof UserError ? e.message : (e?.stack ?? e)}`)
    process.exit(1)
  })
}
