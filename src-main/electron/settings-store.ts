/**
 * settings.json through electron-store: the same file, schema and defaults as the CLI's
 * conf (`settingsConfOptions`), opened the Electron way.
 */
import ElectronStore from 'electron-store'
import type { Options } from 'electron-store'
import type { SettingsStoreFactory } from '../adapters/settings/settings-store'

type Data = Record<string, unknown>

export const electronStoreFactory: SettingsStoreFactory = (options) => {
  // electron-store calls conf's `configName` `name`, and names the project itself
  const { configName, projectName: _projectName, ...rest } = options
  return new ElectronStore<Data>({ ...rest, name: configName } as Options<Data>)
}
