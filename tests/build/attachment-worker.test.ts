/**
 * The extraction worker in the packaged desktop app. The main process is built the way `npm
 * run build` builds it (electron-vite's main config, output in a fresh folder); the path the
 * built code resolves for the worker (`workerEntry` from the built module that starts it)
 * must be the built worker, and in the packaged layout (`resources/app.asar/…`) a path
 * under `app.asar.unpacked`. Everything that worker loads must be unpacked by
 * electron-builder.yml's asarUnpack, as electron-builder itself reads it: its own files
 * (relative imports: shared chunks) and every package it imports, with the packages those
 * depend on; sharp's native module and libvips (the images) likewise.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join, relative, sep } from 'node:path'
import { pathToFileURL } from 'node:url'
import { resolveConfig } from 'electron-vite'
import { minimatch } from 'minimatch'
import { build, type InlineConfig } from 'vite'
import { beforeAll, describe, expect, it } from 'vitest'
import { workerEntry } from '../../src-main/adapters/worker-entry'

/** the file the built module at `moduleUrl` starts the worker from (extract.ts's call) */
const builtWorkerFile = (moduleUrl: string): string =>
  workerEntry(moduleUrl, 'attachment-worker', './worker.ts').code

const root = process.cwd()
const require = createRequire(import.meta.url)
const { getConfig } = require('app-builder-lib/out/util/config/config') as {
  getConfig(
    projectDir: string,
    configPath: null,
    options: null,
  ): Promise<{ asarUnpack?: string[] | string | null }>
}

let outDir: string

/** the main process built as `npm run build` builds it, into a fresh folder */
async function buildMain(): Promise<string> {
  process.env['NODE_ENV_ELECTRON_VITE'] = 'production'
  const resolved = await resolveConfig({ logLevel: 'warn' }, 'build', 'production')
  const main = resolved.config?.main as InlineConfig | undefined
  if (!main?.build) throw new Error('electron.vite.config has no main build')
  const dir = mkdtempSync(join(tmpdir(), 'cairn-main-'))
  await build({
    ...main,
    logLevel: 'warn',
    build: { ...main.build, outDir: dir, emptyOutDir: true },
  })
  return dir
}

/** the built .js files (relative to the build's folder), their code */
function builtFiles(dir: string): Map<string, string> {
  const out = new Map<string, string>()
  const walk = (d: string): void => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      const p = join(d, e.name)
      if (e.isDirectory()) walk(p)
      else if (e.name.endsWith('.js')) out.set(relative(dir, p), readFileSync(p, 'utf8'))
    }
  }
  walk(dir)
  return out
}

const IMPORT = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g

/** the worker's own files (its relative imports, followed) and the packages it imports */
function workerClosure(dir: string): { files: string[]; packages: Set<string> } {
  const files: string[] = []
  const packages = new Set<string>()
  const todo = ['attachment-worker.js']
  while (todo.length > 0) {
    const file = todo.pop()!
    if (files.includes(file)) continue
    files.push(file)
    const code = readFileSync(join(dir, file), 'utf8')
    for (const [, spec] of code.matchAll(IMPORT)) {
      if (spec!.startsWith('.')) todo.push(join(dirname(file), spec!))
      else if (!spec!.startsWith('node:')) {
        const parts = spec!.split('/')
        packages.add(spec!.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]!)
      }
    }
  }
  return { files, packages }
}

/** a package's folder as installed, seen from `from`, following Node's lookup */
function installed(name: string, from: string): string | null {
  for (let d = from; ; d = dirname(d)) {
    const p = join(d, 'node_modules', name)
    if (existsSync(join(p, 'package.json'))) return p
    if (d === root || dirname(d) === d) return null
  }
}

/** every installed folder of `names` and of what they depend on (relative to the root) */
function dependencyFolders(names: Iterable<string>): string[] {
  const seen = new Set<string>()
  const todo = [...names].map((n) => ({ name: n, from: root }))
  while (todo.length > 0) {
    const { name, from } = todo.pop()!
    const folder = installed(name, from)
    if (!folder) continue // an optional dependency not installed on this machine
    if (seen.has(folder)) continue
    seen.add(folder)
    const pkg = JSON.parse(readFileSync(join(folder, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>
      optionalDependencies?: Record<string, string>
    }
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies }))
      todo.push({ name: dep, from: folder })
  }
  return [...seen].map((f) => relative(root, f).split(sep).join('/'))
}

async function unpackPatterns(): Promise<string[]> {
  const { asarUnpack } = await getConfig(root, null, null)
  return asarUnpack == null ? [] : Array.isArray(asarUnpack) ? asarUnpack : [asarUnpack]
}

/** whether electron-builder leaves `path` (relative to the app) outside the archive */
const unpacked = (patterns: string[], path: string): boolean =>
  patterns.some((p) => minimatch(path, p, { dot: true }))

beforeAll(async () => {
  outDir = await buildMain()
}, 120_000)

describe('the extraction worker of the desktop app', () => {
  it('is built, at the path the built code resolves', () => {
    const files = builtFiles(outDir)
    expect(files.has('attachment-worker.js')).toBe(true)
    // the module that starts the worker, wherever the bundler put it (index.js or a chunk)
    const callers = [...files].filter(
      ([name, code]) => name !== 'attachment-worker.js' && /["']attachment-worker["']/.test(code),
    )
    expect(callers.map(([name]) => name)).not.toEqual([])
    for (const [name] of callers) {
      const resolved = builtWorkerFile(pathToFileURL(join(outDir, name)).href)
      expect(resolved).toBe(join(outDir, 'attachment-worker.js'))
      expect(existsSync(resolved)).toBe(true)
    }
  })

  it('is taken from app.asar.unpacked in the packaged app', () => {
    const app = join(tmpdir(), 'Cairn', 'resources', 'app.asar')
    for (const from of ['index.js', 'chunks/extract-abc.js']) {
      expect(builtWorkerFile(pathToFileURL(join(app, 'out', 'main', from)).href)).toBe(
        join(
          tmpdir(),
          'Cairn',
          'resources',
          'app.asar.unpacked',
          'out',
          'main',
          'attachment-worker.js',
        ),
      )
    }
  })

  it('and every file and package it loads are unpacked by electron-builder.yml', async () => {
    const patterns = await unpackPatterns()
    const { files, packages } = workerClosure(outDir)
    expect(files.length).toBeGreaterThan(0)
    const stillPacked = files
      .map((f) => `out/main/${f.split(sep).join('/')}`)
      .filter((f) => !unpacked(patterns, f))
    expect(stillPacked).toEqual([])
    expect([...packages]).toEqual(expect.arrayContaining(['pdfjs-dist', 'mammoth', 'officeparser']))
    const folders = dependencyFolders(packages)
    expect(folders.length).toBeGreaterThan(packages.size)
    expect(folders.filter((f) => !unpacked(patterns, `${f}/package.json`))).toEqual([])
  })

  it('sharp and its prebuilt libvips are unpacked (the main process loads them by path)', async () => {
    const patterns = await unpackPatterns()
    // its JavaScript dependencies load from the archive in the main process; its native
    // module and libvips (@img/sharp-<platform>) must be real files
    const native = dependencyFolders(['sharp']).filter(
      (f) => f === 'node_modules/sharp' || f.startsWith('node_modules/@img/'),
    )
    expect(native.some((f) => f.startsWith('node_modules/@img/sharp-'))).toBe(true)
    expect(native.filter((f) => !unpacked(patterns, `${f}/package.json`))).toEqual([])
  })
})
