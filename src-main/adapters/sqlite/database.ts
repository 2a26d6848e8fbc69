/**
 * Opening `cairn.db`: connection settings shared by every host, then migrations.
 */
import Database from 'better-sqlite3'
import { migrate, type MigrationResult } from './migrations'

/**
 * The CLI, browser mode and the desktop app may use one data directory at the same time.
 * A writer waits this long for another one's transaction (ours are a few milliseconds).
 */
export const BUSY_TIMEOUT_MS = 5_000

export const DB_FILE_NAME = 'cairn.db'

export interface OpenDatabaseOptions {
  /**
   * Path of a separately built `better_sqlite3.node` (the Electron app's ABI differs from
   * Node's). Passed to better-sqlite3 unchanged.
   */
  nativeBinding?: string
  /** told when the schema was migrated (and where the backup went) */
  onMigrated?: (result: MigrationResult) => void
  /** for tests: the clock used to name backups */
  now?: () => number
}

/**
 * Opens (creating if needed) a Cairn database: WAL journal, `synchronous = NORMAL` (safe in
 * WAL: a crash of the process loses nothing committed; a power loss may lose the last
 * commits, never corrupts), foreign keys on, busy timeout, schema migrated to the latest
 * version (with a backup first when an existing database changes).
 */
export function openDatabase(file: string, options: OpenDatabaseOptions = {}): Database.Database {
  const db = new Database(file, {
    timeout: BUSY_TIMEOUT_MS,
    ...(options.nativeBinding ? { nativeBinding: options.nativeBinding } : {}),
  })
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`)
    const mode = String(db.pragma('journal_mode = WAL', { simple: true }))
    if (mode !== 'wal' && file !== ':memory:') {
      throw new Error(`Could not switch ${file} to WAL mode (journal_mode is ${mode}).`)
    }
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    const result = migrate(db, file, options.now ? { now: options.now } : {})
    if (result.from !== result.to) options.onMigrated?.(result)
  } catch (e) {
    db.close()
    throw e
  }
  return db
}
