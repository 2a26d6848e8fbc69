import { copyFileSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { afterPack, checkPackedBinding } from '../../scripts/after-pack.mjs'
import { bytesWithAbi, ELF_MACHINE, NODE_ABI, NODE_BUILD, withElfMachine } from './abi-fixture'

// electron-builder's own loader, validator and hook resolver, as `npm run dist` runs them
const require = createRequire(import.meta.url)
interface BuilderConfig {
  afterPack?: string
  electronFuses?: Record<string, unknown>
  extraResources?: unknown
}
const { getConfig, validateConfiguration } = require('app-builder-lib/out/util/config/config') as {
  getConfig(projectDir: string, configPath: null, options: null): Promise<BuilderConfig>
  validateConfiguration(config: BuilderConfig, logger: unknown): Promise<void>
}
const { resolveFunction } = require('app-builder-lib/out/util/resolve') as {
  resolveFunction(type: string, executor: unknown, name: string, root: string): Promise<unknown>
}
const { DebugLogger } = require('builder-util') as { DebugLogger: new (on: boolean) => unknown }

const root = process.cwd()
const ELECTRON = '39.8.10'

describe('the electron-builder configuration', () => {
  it('is valid for the installed electron-builder', async () => {
    const config = await getConfig(root, null, null)
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined()
  })

  it('signs the macOS app ad hoc again after flipping the fuses', async () => {
    const config = await getConfig(root, null, null)
    expect(config.electronFuses?.resetAdHocDarwinSignature).toBe(true)
  })

  it('runs the afterPack check, which electron-builder resolves to our function', async () => {
    const config = await getConfig(root, null, null)
    expect(config.afterPack).toBe('./scripts/after-pack.mjs')
    // loaded by electron-builder (outside vitest): the same function, so it refuses too
    const hook = (await resolveFunction('module', config.afterPack, 'afterPack', root)) as (
      ctx: unknown,
    ) => Promise<void>
    expect(typeof hook).toBe('function')
    const appOutDir = mkdtempSync(join(tmpdir(), 'cairn-packed-'))
    await expect(
      hook({ appOutDir, packager: { getResourcesDir: (d: string) => join(d, 'resources') } }),
    ).rejects.toThrow(/The packaged app cannot open its database/)
  })
})

describe('afterPack: the packaged app holds better-sqlite3 for its Electron', () => {
  /** A packed app folder laid out as on Linux and Windows: <appOutDir>/resources/native. */
  function packed(binding?: Buffer | string): string {
    const appOutDir = mkdtempSync(join(tmpdir(), 'cairn-packed-'))
    const native = join(appOutDir, 'resources', 'native')
    mkdirSync(native, { recursive: true })
    writeFileSync(join(appOutDir, 'cairn'), '')
    if (typeof binding === 'string') copyFileSync(binding, join(native, 'better_sqlite3.node'))
    else if (binding) writeFileSync(join(native, 'better_sqlite3.node'), binding)
    return appOutDir
  }
  // electron-builder's Arch enum for this machine (the fixture binaries are built for it)
  const HOST_ARCH = ['ia32', 'x64', 'armv7l', 'arm64'].indexOf(process.arch)
  const context = (appOutDir: string, arch = HOST_ARCH) => ({
    appOutDir,
    arch,
    packager: {
      getResourcesDir: (dir: string) => join(dir, 'resources'),
      info: { framework: { version: ELECTRON } },
    },
  })

  it('passes a binary built for Electron’s ABI', async () => {
    const dir = packed(bytesWithAbi(140))
    expect(checkPackedBinding(join(dir, 'resources'), ELECTRON)).toBeNull()
    await expect(afterPack(context(dir))).resolves.toBeUndefined()
  })

  it('fails the packaging when the binary was built for Node', async () => {
    const dir = packed(NODE_BUILD)
    await expect(afterPack(context(dir))).rejects.toThrow(
      new RegExp(`built for ABI ${NODE_ABI}.*needs ABI 140[^]*electron-native\\.mjs --force`),
    )
  })

  it('fails the packaging when the binary is missing', async () => {
    await expect(afterPack(context(packed()))).rejects.toThrow(/cannot open its database.*ENOENT/)
  })

  it('fails the packaging when the binary is for another CPU (arm64 app, x64 binary)', async () => {
    const x64 = packed(withElfMachine(bytesWithAbi(140), ELF_MACHINE.x64))
    await expect(afterPack(context(x64, 3))).rejects.toThrow(/built for x64, but the app is arm64/)
    await expect(afterPack(context(x64, 1))).resolves.toBeUndefined()
    const arm64 = packed(withElfMachine(bytesWithAbi(140), ELF_MACHINE.arm64))
    await expect(afterPack(context(arm64, 1))).rejects.toThrow(
      /built for arm64, but the app is x64/,
    )
  })

  it('checks against the Electron being packaged, not only the installed one', async () => {
    const dir = packed(bytesWithAbi(140))
    const ctx = context(dir)
    ctx.packager.info.framework.version = '40.0.0'
    await expect(afterPack(ctx)).rejects.toThrow(/Electron 40\.0\.0 needs ABI 143/)
  })
})
