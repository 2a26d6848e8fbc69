/**
 * scripts/electron-native.mjs end to end, with @electron/rebuild replaced by a stand-in
 * that writes a chosen binary (the real one needs Electron's headers from the network).
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { main } from '../../scripts/electron-native.mjs'
import { electronAbi } from '../../scripts/native-abi.mjs'
import { bytesWithAbi, NODE_ABI } from './abi-fixture'

const NODE_BYTES = readFileSync(
  join(process.cwd(), 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'),
)
const ELECTRON = JSON.parse(
  readFileSync(join(process.cwd(), 'node_modules', 'electron', 'package.json'), 'utf8'),
).version as string
const ABI = electronAbi(ELECTRON)

/** A rebuild that writes `bytes` where node-gyp would, and notes npm's nodedir as it saw it. */
function fakeRebuild(bytes: Buffer, seen: Array<string | undefined>) {
  return vi.fn(async (o: { buildPath: string; electronVersion: string }) => {
    seen.push(process.env['npm_config_nodedir'])
    const file = join(o.buildPath, 'build', 'Release', 'better_sqlite3.node')
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, bytes)
  })
}

describe('electron-native: building better-sqlite3 for Electron', () => {
  let outDir = ''
  const saved = { ...process.env }
  const binding = () => join(outDir, 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node')
  const stamp = () => join(outDir, 'stamp.json')
  beforeEach(() => {
    outDir = join(mkdtempSync(join(tmpdir(), 'cairn-native-')), '.electron-native')
    // as `npm start` runs it on a machine whose npm config sets nodedir
    process.env['npm_config_nodedir'] = '/usr'
    process.env['npm_config_runtime'] = 'node'
    vi.spyOn(console, 'log').mockImplementation(() => {})
    vi.spyOn(console, 'warn').mockImplementation(() => {})
  })
  afterEach(() => {
    process.env = { ...saved }
    vi.restoreAllMocks()
  })

  it('builds without npm’s target variables, and refuses (and removes) a Node-ABI binary', async () => {
    const seen: Array<string | undefined> = []
    const rebuild = fakeRebuild(NODE_BYTES, seen)
    await expect(main(['--force'], { outDir, rebuild })).rejects.toThrow(
      new RegExp(
        `built for ABI ${NODE_ABI}.*Electron ${ELECTRON.replaceAll('.', '\\.')} needs ABI`,
      ),
    )
    expect(seen).toEqual([undefined])
    expect(process.env['npm_config_runtime']).toBeUndefined()
    expect(existsSync(binding())).toBe(false)
    expect(existsSync(stamp())).toBe(false)
  })

  it('stamps a binary with Electron’s ABI, then finds it up to date', async () => {
    const rebuild = fakeRebuild(bytesWithAbi(ABI), [])
    await main([], { outDir, rebuild })
    expect(rebuild).toHaveBeenCalledTimes(1)
    expect(rebuild.mock.calls[0]![0]).toMatchObject({ electronVersion: ELECTRON })
    expect(JSON.parse(readFileSync(stamp(), 'utf8'))).toMatchObject({ electron: ELECTRON })
    await main([], { outDir, rebuild })
    expect(rebuild).toHaveBeenCalledTimes(1)
  })

  it('builds again when the stamped binary names another ABI', async () => {
    const rebuild = fakeRebuild(bytesWithAbi(ABI), [])
    await main([], { outDir, rebuild })
    writeFileSync(binding(), NODE_BYTES) // what the old script stamped as Electron's
    await main([], { outDir, rebuild })
    expect(rebuild).toHaveBeenCalledTimes(2)
    expect(console.log).toHaveBeenCalledWith(
      expect.stringMatching(new RegExp(`needs ABI ${ABI}\\. Building it again`)),
    )
  })
})
