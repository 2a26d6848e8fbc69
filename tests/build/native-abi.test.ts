import { copyFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  abiMismatch,
  binaryArch,
  ELECTRON_ABI,
  electronAbi,
  moduleAbis,
} from '../../scripts/native-abi.mjs'
import { clearInheritedTarget, whyRebuild } from '../../scripts/electron-native.mjs'
import {
  binaryWithAbi,
  ELF_MACHINE,
  NODE_ABI,
  NODE_BUILD,
  RELEASE,
  withElfMachine,
} from './abi-fixture'

const ELECTRON = '39.8.10'

describe('the ABI of a native module, read from the binary', () => {
  it('reads the Node build of better-sqlite3 as built for this Node', () => {
    expect(moduleAbis(NODE_BUILD)).toEqual([NODE_ABI])
  })

  it('refuses the Node build for Electron 39, and says it was built with Node’s headers', () => {
    const why = abiMismatch(NODE_BUILD, electronAbi(ELECTRON), `Electron ${ELECTRON}`)
    expect(why).toContain(`built for ABI ${NODE_ABI}`)
    expect(why).toContain("it was built with Node's headers")
    expect(why).toContain(`Electron ${ELECTRON} needs ABI 140`)
  })

  it('accepts a binary whose register symbol names Electron’s ABI', () => {
    const file = binaryWithAbi(140)
    expect(moduleAbis(file)).toEqual([140])
    expect(abiMismatch(file, 140, 'Electron 39.8.10')).toBeNull()
    expect(abiMismatch(file, 143, 'Electron 40.0.0')).toMatch(
      /built for ABI 140, but .*needs ABI 143/,
    )
  })

  it('refuses a file that is not a Node module, or is not there', () => {
    // a SQLite extension: a real shared library without a Node register function
    const ext = join(RELEASE, 'test_extension.node')
    expect(moduleAbis(ext)).toEqual([])
    expect(abiMismatch(ext, 140, 'Electron')).toMatch(/not a native Node module/)
    expect(abiMismatch(join(RELEASE, 'none.node'), 140, 'Electron')).toMatch(
      /cannot be read: ENOENT/,
    )
  })

  it('knows Electron’s ABI, and the fallback table agrees with node-abi', () => {
    expect(electronAbi(ELECTRON)).toBe(140)
    expect(electronAbi('v39.0.0')).toBe(140)
    const nodeAbi = createRequire(import.meta.url)('node-abi') as {
      getAbi: (v: string, runtime: string) => string
    }
    for (const [major, abi] of Object.entries(ELECTRON_ABI)) {
      expect(Number(nodeAbi.getAbi(`${major}.0.0`, 'electron')), `Electron ${major}`).toBe(abi)
    }
    expect(() => electronAbi('999.0.0')).toThrow(/not known here/)
  })
})

describe('the CPU a native module is built for, read from its header', () => {
  const file = (bytes: Buffer): string => {
    const f = join(mkdtempSync(join(tmpdir(), 'cairn-arch-')), 'x.node')
    writeFileSync(f, bytes)
    return f
  }

  it('reads the Node build as built for this machine', () => {
    expect(binaryArch(NODE_BUILD)).toBe(process.arch)
  })

  it('reads ELF, Mach-O and PE headers', () => {
    const elf = readFileSync(NODE_BUILD)
    expect(binaryArch(file(withElfMachine(elf, ELF_MACHINE.arm64)))).toBe('arm64')
    expect(binaryArch(file(withElfMachine(elf, ELF_MACHINE.x64)))).toBe('x64')
    const macho = Buffer.alloc(64)
    macho.writeUInt32LE(0xfeedfacf, 0)
    macho.writeUInt32LE(0x0100000c, 4)
    expect(binaryArch(file(macho))).toBe('arm64')
    const fat = Buffer.alloc(64)
    fat.writeUInt32BE(0xcafebabe, 0)
    expect(binaryArch(file(fat))).toBe('universal')
    const pe = Buffer.alloc(256)
    pe.write('MZ', 0, 'latin1')
    pe.writeUInt32LE(0x80, 0x3c)
    pe.write('PE\0\0', 0x80, 'latin1')
    pe.writeUInt16LE(0x8664, 0x84)
    expect(binaryArch(file(pe))).toBe('x64')
    expect(binaryArch(join(process.cwd(), 'package.json'))).toBeNull()
  })
})

describe('electron-native: the build is for Electron, whatever npm passes down', () => {
  it('clears the npm and node-gyp target variables, any case or separator, and keeps the rest', () => {
    const env: Record<string, string | undefined> = {
      PATH: '/usr/bin',
      npm_config_nodedir: '/usr',
      NPM_CONFIG_TARGET: '20.20.2',
      npm_config_runtime: 'node',
      'npm_config_dist-url': 'https://example.invalid',
      npm_config_disturl: 'https://example.invalid',
      npm_config_arch: 'x64',
      npm_config_target_arch: 'x64',
      npm_config_platform: 'linux',
      npm_package_config_node_gyp_nodedir: '/usr',
      npm_config_cache: '/root/.npm',
      npm_config_python: '/usr/bin/python3',
      nodedir: '/usr', // not npm's: node-gyp does not read it
    }
    const cleared = clearInheritedTarget(env)
    expect(cleared.sort()).toEqual(
      [
        'NPM_CONFIG_TARGET',
        'npm_config_arch',
        'npm_config_dist-url',
        'npm_config_disturl',
        'npm_config_nodedir',
        'npm_config_platform',
        'npm_config_runtime',
        'npm_config_target_arch',
        'npm_package_config_node_gyp_nodedir',
      ].sort(),
    )
    expect(env).toEqual({
      PATH: '/usr/bin',
      npm_config_cache: '/root/.npm',
      npm_config_python: '/usr/bin/python3',
      nodedir: '/usr',
    })
  })

  it('does not believe a stamp whose binary names another ABI', () => {
    const wanted = { electron: ELECTRON, betterSqlite3: '12.11.1', platform: 'linux', arch: 'x64' }
    const stamp = { ...wanted, builtAt: 'x' }
    // the Node build, stamped as Electron 39 (what happened with npm's nodedir set)
    const wrong = join(mkdtempSync(join(tmpdir(), 'cairn-abi-')), 'better_sqlite3.node')
    copyFileSync(NODE_BUILD, wrong)
    expect(whyRebuild(stamp, wanted, wrong)).toMatch(/needs ABI 140\. Building it again/)
    expect(whyRebuild(stamp, wanted, binaryWithAbi(140))).toBeNull()
    expect(whyRebuild(null, wanted, binaryWithAbi(140))).toBe('not built')
    expect(whyRebuild(stamp, wanted, join(tmpdir(), 'no-such.node'))).toBe('not built')
  })
})
