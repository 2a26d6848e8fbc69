/**
 * settings.json through electron-store: the same file and defaults as the CLI and browser
 * mode (`settingsConfOptions`), opened the Electron way; the zod schema checks it in
 * `openSettings`, so no JSON schema is compiled here.
 *
 * The one place that loads conf. conf writes through `atomically`, whose `when-exit`
 * hooks SIGINT and SIGTERM when it is imported (it cleans up its temp files, then raises
 * the signal again). In the desktop app that is the default outcome anyway (the process
 * ends); the CLI and browser mode never import this module, so their own signal handlers
 * are the only ones.
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
