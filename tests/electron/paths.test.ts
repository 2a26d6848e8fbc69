import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it, vi } from 'vitest'
import { desktopDataDir } from '../../src-main/adapters/data-dir'
import { openSettings } from '../../src-main/adapters/settings/settings-store'
import type {
  ConfLikeStore,
  SettingsConfOptions,
} from '../../src-main/adapters/settings/settings-store'
import { appDataDir, appFiles, argValue } from '../../src-main/electron/paths'
import { findNativeBinding, nativeBindingPath } from '../../src-main/electron/native-binding'

describe('the data directory of the desktop app', () => {
  it('is the same directory the CLI uses by default (~/.config/Cairn on Linux)', () => {
    expect(appDataDir(['electron', '.'], {})).toBe(desktopDataDir(process.platform, {}))
  })

  it('follows CAIRN_DATA_DIR, and --data-dir over it', () => {
    expect(appDataDir([], { CAIRN_DATA_DIR: '/tmp/a' })).toBe('/tmp/a')
    expect(appDataDir(['x', '--data-dir', '/tmp/b'], { CAIRN_DATA_DIR: '/tmp/a' })).toBe('/tmp/b')
    expect(appDataDir(['x', '--data-dir=/tmp/c'], {})).toBe('/tmp/c')
  })

  it('reads flags in both forms, and not a following flag as a value', () => {
    expect(argValue(['--mcp-config', 'a.json'], 'mcp-config')).toBe('a.json')
    expect(argValue(['--mcp-config=b.json'], 'mcp-config')).toBe('b.json')
    expect(argValue(['--data-dir', '--inspect'], 'data-dir')).toBeUndefined()
    expect(argValue(['--data-directory', 'x'], 'data-dir')).toBeUndefined()
  })

  it('finds the built preload and renderer under the app path', () => {
    expect(appFiles('/app')).toEqual({
      preload: join('/app', 'out', 'preload', 'index.cjs'),
      renderer: join('/app', 'out', 'renderer'),
    })
  })
})

describe('the Electron build of better-sqlite3', () => {
  const at = { isPackaged: false, appPath: '/proj', resourcesPath: '/res' }

  it('is in .electron-native/ in development and in resources/native/ when packaged', () => {
    expect(nativeBindingPath(at)).toBe(
      join(
        '/proj',
        '.electron-native',
        'better-sqlite3',
        'build',
        'Release',
        'better_sqlite3.node',
      ),
    )
    expect(nativeBindingPath({ ...at, isPackaged: true })).toBe(
      join('/res', 'native', 'better_sqlite3.node'),
    )
  })

  it('says what to do when it is missing', () => {
    expect(() => findNativeBinding(at, () => false)).toThrow(/node scripts\/electron-native\.mjs/)
    expect(() => findNativeBinding({ ...at, isPackaged: true }, () => false)).toThrow(/reinstall/)
    expect(findNativeBinding(at, () => true)).toBe(nativeBindingPath(at))
  })

  it('agrees with electron-builder.yml (extraResources → native/better_sqlite3.node)', () => {
    const yml = readFileSync(new URL('../../electron-builder.yml', import.meta.url), 'utf8')
    expect(yml).toContain('from: .electron-native/better-sqlite3/build/Release/better_sqlite3.node')
    expect(yml).toContain('to: native/better_sqlite3.node')
    expect(yml).toMatch(/^npmRebuild: false$/m)
  })
})

describe('settings through another store (electron-store in the app)', () => {
  it('openSettings opens the file through the given factory, with the conf options', async () => {
    const { default: Conf } = await import('conf')
    const dir = mkdtempSync(join(tmpdir(), 'cairn-settings-'))
    const seen: unknown[] = []
    const createStore = vi.fn((options: SettingsConfOptions): ConfLikeStore => {
      seen.push(options)
      return new Conf<Record<string, unknown>>(options as ConstructorParameters<typeof Conf>[0])
    })
    const settings = openSettings(dir, { createStore })
    expect(createStore).toHaveBeenCalledTimes(1)
    expect(seen[0]).toMatchObject({ configName: 'settings', cwd: dir, fileExtension: 'json' })
    await settings.update((s) => void (s.window = { x: 1, y: 2, width: 300, height: 200 }))
    const file = JSON.parse(readFileSync(join(dir, 'settings.json'), 'utf8')) as { window: unknown }
    expect(file.window).toEqual({ x: 1, y: 2, width: 300, height: 200 })
    expect(openSettings(dir).get().window).toEqual({ x: 1, y: 2, width: 300, height: 200 })
  })
})
