/** The session store on a temporary data directory, for the storage tests. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
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
