/** The session store on a temporary data directory, for the storage tests. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Database from 'better-sqlite3'
import { MIGRATIONS } from '../../src-main/adapters/sqlite/migrations'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'

export interface TempStore {
  /** the temporary data directory */
  dir: string
  store: SqliteSessionStore
  /** closes the store and removes the directory */
  close(): void
}

export function openTempStore(
  /** the directory's name, e.g. `cairn-storage-search-` */
  prefix: string,
  opts?: Parameters<typeof createSessionStore>[1],
): TempStore {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  const store = createSessionStore(dir, opts)
  return {
    dir,
    store,
    close: () => {
      store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/**
 * The database file of `dir` (`cairn.db`) as version `version` of the schema left it: the
 * migrations up to it and no later, in WAL mode. It is returned open for the test's own
 * rows; close it before the store opens the directory (and migrates it).
 */
export function databaseAtVersion(dir: string, version: number): Database.Database {
  const db = new Database(join(dir, 'cairn.db'))
  db.pragma('journal_mode = WAL')
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) {
    db.exec(m.sql)
    m.run?.(db)
  }
  db.pragma(`user_version = ${version}`)
  return db
}
