import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  assertSessionId,
  dataPaths,
  desktopDataDir,
  resolveDataDir,
} from '../../src-main/adapters/data-dir'

describe('resolveDataDir', () => {
  const home = '/home/ada'

  it('prefers the --data-dir flag over CAIRN_DATA_DIR', () => {
    const env = { CAIRN_DATA_DIR: '/from/env' }
    expect(resolveDataDir({ flag: '/from/flag', env, home, platform: 'linux' })).toBe('/from/flag')
    expect(resolveDataDir({ env, home, platform: 'linux' })).toBe('/from/env')
  })

  it('resolves a relative or ~ path to an absolute one', () => {
    expect(resolveDataDir({ flag: 'data', env: {}, cwd: '/work', platform: 'linux' })).toBe(
      '/work/data',
    )
    expect(resolveDataDir({ flag: '~/cairn', env: {}, home, platform: 'linux' })).toBe(
      '/home/ada/cairn',
    )
  })

  it("falls back to Electron's userData for productName Cairn", () => {
    expect(resolveDataDir({ env: {}, home, platform: 'linux' })).toBe('/home/ada/.config/Cairn')
    expect(resolveDataDir({ env: { CAIRN_DATA_DIR: '  ' }, home, platform: 'linux' })).toBe(
      '/home/ada/.config/Cairn',
    )
    expect(desktopDataDir('linux', { XDG_CONFIG_HOME: '/xdg' }, home)).toBe('/xdg/Cairn')
    expect(desktopDataDir('darwin', {}, '/Users/ada')).toBe(
      '/Users/ada/Library/Application Support/Cairn',
    )
    expect(desktopDataDir('win32', { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'C:\\x')).toBe(
      'C:\\Users\\ada\\AppData\\Roaming\\Cairn',
    )
  })
})

describe('dataPaths', () => {
  it('names every file under the data directory', () => {
    const p = dataPaths('/d')
    expect(p).toMatchObject({
      root: path.resolve('/d'),
      db: path.resolve('/d/cairn.db'),
      settings: path.resolve('/d/settings.json'),
      secrets: path.resolve('/d/secrets.json'),
      logsRoot: path.resolve('/d/logs'),
    })
    expect(p.sessionLogs('abc-123_X')).toBe(path.resolve('/d/logs/sessions/abc-123_X'))
  })

  it('rejects session ids that could leave the logs directory', () => {
    for (const bad of ['../x', 'a/b', 'a\\b', '', '.', '..', 'a b', 'é']) {
      expect(() => dataPaths('/d').sessionLogs(bad)).toThrow(/Invalid session id/)
      expect(() => assertSessionId(bad)).toThrow(/Invalid session id/)
    }
  })
})
