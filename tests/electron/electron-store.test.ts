/**
 * The electron-store factory. electron-store itself is replaced here: it imports the
 * `electron` package from node_modules, which throws without the Electron binary (and
 * vi.mock does not reach into node_modules). What is checked is what we hand to it.
 */
import { describe, expect, it, vi } from 'vitest'
import { settingsConfOptions } from '../../src-main/adapters/settings/settings-store'

const constructed: Record<string, unknown>[] = []
vi.mock('electron-store', () => ({
  default: class {
    store: Record<string, unknown> = {}
    constructor(options: Record<string, unknown>) {
      constructed.push(options)
    }
  },
}))

describe('electronStoreFactory', () => {
  it('opens settings.json in the data directory the electron-store way (name, not configName)', async () => {
    const { electronStoreFactory } = await import('../../src-main/electron/settings-store')
    const options = settingsConfOptions('/data')
    const store = electronStoreFactory(options)
    expect(store).toHaveProperty('store')
    const [given] = constructed
    expect(given).toMatchObject({
      name: 'settings',
      cwd: options.cwd,
      fileExtension: 'json',
      defaults: options.defaults,
      clearInvalidConfig: false,
      watch: false,
    })
    expect(given).not.toHaveProperty('configName')
    expect(given).not.toHaveProperty('projectName')
    // no JSON schema to compile at every start: the zod schema checks the file instead
    expect(given).not.toHaveProperty('schema')
  })
})
