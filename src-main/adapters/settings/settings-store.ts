/**
 * `<dataDir>/settings.json`. The CLI and browser mode read it directly; the desktop app
 * opens the same file with electron-store (conf underneath: see `settingsConfOptions`).
 * conf is not imported here: it pulls in a library that hooks SIGINT and SIGTERM as soon
 * as it is loaded, and only the desktop shell (`electron/settings-store.ts`) accepts that.
 * No JSON schema is handed to conf (it would compile one at every start): the zod schema
 * checks the file after every read and before every write.
 *
 * Several processes may share the file. Every read-modify-write runs under a
 * cross-process lock and re-reads the file inside it; every `get()` reads the file
 * (conf's `store` getter reads and parses the file on each access), so nothing stale
 * is served. A broken file is never wiped silently: invalid JSON is copied aside, a
 * bad value is reset alone, and each repair is reported as a warning.
 */
import fs from 'node:fs'
import path from 'node:path'
import { dataPaths, PRIVATE_DIR_MODE } from '../data-dir'
import { copyAside, writeFileAtomic, writeFileAtomicSync } from '../atomic-file'
import { isLockHeldHere, withFileLock, withFileLockSync, type FileLockOptions } from './file-lock'
import { repairSettings } from './repair'
import type { SettingsStore } from '../../core/service-ports'
import { ExpectedError } from '../../core/errors'
import { defaultSettings, type Settings } from './schema'
import { checkSettings, isPlainObject, preview } from './validate'

/** MCP headers and environment variables live in the file: readable by the owner only */
const FILE_MODE = 0o600

/** What the settings store needs of conf: `store` reads the whole file, assigning writes it. */
export interface ConfLikeStore {
  store: Record<string, unknown>
}

/** Opens the settings file with the given options (the desktop app: electron-store). */
export type SettingsStoreFactory = (options: SettingsConfOptions) => ConfLikeStore

export interface OpenSettingsOptions {
  onWarning?: (message: string) => void
  lock?: FileLockOptions
  /** default: the file read directly */
  createStore?: SettingsStoreFactory
}

/** The settings a change would make are not valid (`problems` names each); nothing was saved. */
export class SettingsValidationError extends ExpectedError<'bad_request'> {
  constructor(readonly problems: string) {
    super('bad_request', `Invalid settings: ${problems}. Nothing was saved.`)
    this.name = 'SettingsValidationError'
  }
}

/**
 * The conf options for the settings file. The desktop app opens the same file with
 * `new ElectronStore({ ...rest, name: configName })` (electron-store calls `configName`
 * `name`); keep the two in step: same file, no encryption, no migrations.
 */
export function settingsConfOptions(dataDir: string) {
  return {
    configName: 'settings',
    cwd: dataPaths(dataDir).root,
    projectName: 'cairn',
    fileExtension: 'json',
    defaults: defaultSettings() as unknown as Record<string, unknown>,
    clearInvalidConfig: false,
    watch: false,
    configFileMode: FILE_MODE,
  }
}

export type SettingsConfOptions = ReturnType<typeof settingsConfOptions>

/** The file as it is, parsed on every access (as conf's `store` getter does). */
const fileStore: SettingsStoreFactory = (options) => {
  const file = path.join(options.cwd, `${options.configName}.${options.fileExtension}`)
  return {
    get store(): Record<string, unknown> {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>
    },
  }
}

/** conf writes JSON with tabs: repairs write the same way, so the file does not churn */
const serialize = (value: unknown): string => JSON.stringify(value, undefined, '\t')

class ConfSettingsStore implements SettingsStore {
  readonly path: string
  readonly warnings: string[] = []
  private readonly lockPath: string
  private readonly conf: ConfLikeStore

  constructor(
    dataDir: string,
    private readonly opts: OpenSettingsOptions,
  ) {
    this.path = dataPaths(dataDir).settings
    this.lockPath = `${this.path}.lock`
    fs.mkdirSync(dataPaths(dataDir).root, { recursive: true, mode: PRIVATE_DIR_MODE })
    // a broken file is repaired first, under the lock (electron-store throws on invalid JSON)
    this.conf = this.locked(() => {
      this.readAndRepair()
      return (opts.createStore ?? fileStore)(settingsConfOptions(dataDir))
    })
  }

  get(): Settings {
    let raw: unknown
    try {
      raw = this.conf.store
    } catch {
      // another process left it broken (or mid-way through a non-atomic write): repair,
      // unless this process is mid-update (then that update repairs it)
      if (isLockHeldHere(this.lockPath)) return defaultSettings()
      return this.locked(() => this.readAndRepair())
    }
    const { settings, problems } = repairSettings(raw)
    // mid-update in this process (the lock is ours): the repair is left to that update
    if (problems.length > 0 && !isLockHeldHere(this.lockPath))
      return this.locked(() => this.readAndRepair())
    return settings // parsed afresh from the file: nobody else holds it
  }

  update(mutator: (settings: Settings) => void | Settings): Promise<Settings> {
    return withFileLock(
      this.lockPath,
      async () => {
        const result = this.mutated(mutator)
        await writeFileAtomic(this.path, serialize(result), { mode: FILE_MODE })
        return structuredClone(result)
      },
      this.opts.lock,
    )
  }

  updateSync(mutator: (settings: Settings) => void | Settings): Settings {
    return this.locked(() => {
      const result = this.mutated(mutator)
      writeFileAtomicSync(this.path, serialize(result), { mode: FILE_MODE })
      return structuredClone(result)
    })
  }

  /** Inside the lock: the current settings changed by `mutator`, checked. */
  private mutated(mutator: (settings: Settings) => void | Settings): Settings {
    const draft = this.readAndRepair()
    const result = mutator(draft) ?? draft
    const problems = checkSettings(result)
    if (problems !== null) throw new SettingsValidationError(problems)
    return result
  }

  private locked<T>(fn: () => T): T {
    return withFileLockSync(this.lockPath, fn, this.opts.lock)
  }

  private warn(message: string): void {
    this.warnings.push(message)
    this.opts.onWarning?.(message)
  }

  /** Inside the lock: reads the file, repairs and rewrites it if needed, returns it. */
  private readAndRepair(): Settings {
    let text: string
    try {
      text = fs.readFileSync(this.path, 'utf8')
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e
      const settings = defaultSettings()
      writeFileAtomicSync(this.path, serialize(settings))
      return settings
    }
    let raw: unknown
    let notJson: string | null = null
    try {
      raw = JSON.parse(text)
      if (!isPlainObject(raw)) notJson = `it held ${preview(raw)}, not an object`
    } catch (e) {
      notJson = `it was not valid JSON: ${(e as Error).message}`
    }
    if (notJson !== null) {
      const copy = copyAside(this.path, 'broken')
      this.warn(
        `The settings file ${this.path} could not be read (${notJson}); it was copied to ${copy} and the defaults are used.`,
      )
      const settings = defaultSettings()
      writeFileAtomicSync(this.path, serialize(settings))
      return settings
    }
    const { settings, problems, changed } = repairSettings(raw)
    if (problems.length > 0) {
      // Only the bad values are reset; the file as it was is kept beside it all the same.
      const copy = copyAside(this.path, 'invalid')
      for (const p of problems) {
        this.warn(`The settings file ${this.path}: ${p} (the previous file was copied to ${copy}).`)
      }
    }
    if (changed) writeFileAtomicSync(this.path, serialize(settings))
    return settings
  }
}

/** Opens (creating or repairing) `<dataDir>/settings.json`. */
export function openSettings(dataDir: string, opts: OpenSettingsOptions = {}): SettingsStore {
  return new ConfSettingsStore(dataDir, opts)
}
