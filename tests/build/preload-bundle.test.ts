import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import vm from 'node:vm'
import { resolveConfig } from 'electron-vite'
import { build, type InlineConfig } from 'vite'
import { beforeEach, describe, expect, it } from 'vitest'
import { CHANNELS } from '../../src-preload/contract/bridge'
import { contextBridge, ipcRenderer, resetElectron } from '../electron/electron-mock'

const root = process.cwd()

/**
 * Builds a preload entry the way `npm run build` (electron-vite build) does: the project's
 * resolved preload config, only with its output in a fresh folder. Returns the bundle.
 */
async function buildPreload(entry = join(root, 'src-preload', 'index.ts')): Promise<string> {
  process.env['NODE_ENV_ELECTRON_VITE'] = 'production'
  const resolved = await resolveConfig({ logLevel: 'warn' }, 'build', 'production')
  const preload = resolved.config?.preload as InlineConfig | undefined
  const options = preload?.build?.rolldownOptions
  if (!preload || !options) throw new Error('electron.vite.config has no preload build')
  const outDir = mkdtempSync(join(tmpdir(), 'cairn-preload-'))
  // vite 8 reads rolldownOptions; electron-vite mirrors rollupOptions into it
  const input = { ...options, input: { index: entry } }
  await build({
    ...preload,
    build: {
      ...preload.build,
      outDir,
      emptyOutDir: true,
      rollupOptions: input,
      rolldownOptions: input,
    },
  })
  return readFileSync(join(outDir, 'index.cjs'), 'utf8')
}

/** Runs a CommonJS bundle as a sandboxed preload: its require knows only electron. */
function runSandboxed(code: string): string[] {
  const asked: string[] = []
  const electron = { contextBridge, ipcRenderer }
  const sandboxRequire = (name: string): unknown => {
    asked.push(name)
    if (name === 'electron') return electron
    throw new Error(`module not found: ${name}`)
  }
  const module = { exports: {} }
  const context = vm.createContext({ console })
  const wrapped = vm.runInContext(
    `(function (exports, require, module, __filename, __dirname) {${code}\n})`,
    context,
  ) as (...args: unknown[]) => void
  wrapped(module.exports, sandboxRequire, module, 'index.cjs', '.')
  return asked
}

const exposed = (): Array<[string, Record<string, unknown>]> =>
  contextBridge.exposeInMainWorld.mock.calls as unknown as Array<[string, Record<string, unknown>]>

describe('the built preload runs where require knows only electron', () => {
  beforeEach(() => {
    resetElectron()
    ipcRenderer.removeAllListeners()
  })

  it('exposes window.cairn and listens on the event channel', async () => {
    const asked = runSandboxed(await buildPreload())
    expect(asked).toEqual(['electron'])
    expect(exposed()).toHaveLength(1)
    const [name, api] = exposed()[0]!
    expect(name).toBe('cairn')
    expect(Object.keys(api).sort()).toEqual(['off', 'on', 'request'])
    expect(ipcRenderer.listenerCount(CHANNELS.event)).toBe(1)
  })

  it('bundles what a preload imports (zod here) instead of leaving a require()', async () => {
    const code = await buildPreload(join(root, 'tests', 'build', 'fixtures', 'preload-with-zod.ts'))
    expect(runSandboxed(code)).toEqual(['electron'])
    expect(exposed()).toEqual([['probe', { parsed: 'zod ran in the preload' }]])
  })
})
