/**
 * What goes wrong when a data directory is opened, said so that a person can act on it:
 * a directory Cairn cannot write to, or a database file that is damaged. A damaged
 * database is never replaced silently: `setDamagedDatabaseAside` (called only once the user
 * agreed) moves it and its WAL and SHM files aside, and the next open starts a new one.
 */
import fs from 'node:fs'
import path from 'node:path'
import { ExpectedError } from '../../core/errors'
import { DB_FILE_NAME } from './database'

export type StorageProblem = 'data_dir_not_writable' | 'database_damaged'

export class StorageError extends ExpectedError<StorageProblem> {
  constructor(
    problem: StorageProblem,
    message: string,
    /** the directory or file concerned */
    readonly path: string,
    options?: { cause?: unknown },
  ) {
    super(problem, message, { details: { path }, cause: options?.cause })
    this.name = 'StorageError'
  }
}

const NOT_WRITABLE = new Set(['EACCES', 'EPERM', 'EROFS'])
/** SQLite's codes, extended ones included (`SQLITE_READONLY_DIRECTORY`, `SQLITE_CORRUPT_VTAB`…) */
const SQLITE_NOT_WRITABLE = /^SQLITE_(READONLY|CANTOPEN|PERM)/
const SQLITE_DAMAGED = /^SQLITE_(NOTADB|CORRUPT)/

function codeOf(e: unknown): string {
  const code = (e as { code?: unknown } | null)?.code
  return typeof code === 'string' ? code : ''
}

const reasonOf = (e: unknown): string => (e instanceof Error ? e.message : String(e))

/** The StorageError that explains `e`, thrown while opening `dataDir`; null when it is not one. */
export function explainOpenError(e: unknown, dataDir: string): StorageError | null {
  if (e instanceof StorageError) return e
  const code = codeOf(e)
  const db = path.join(dataDir, DB_FILE_NAME)
  if (NOT_WRITABLE.has(code) || SQLITE_NOT_WRITABLE.test(code)) {
    return new StorageError(
      'data_dir_not_writable',
      `Cairn cannot write to its data directory ${dataDir} (${reasonOf(e)}). ` +
        `Make it writable by you (for example: chmod u+w "${dataDir}"), or use another one with --data-dir or CAIRN_DATA_DIR.`,
      dataDir,
      { cause: e },
    )
  }
  if (SQLITE_DAMAGED.test(code)) {
    return new StorageError(
      'database_damaged',
      `The database ${db} is damaged and cannot be opened (${reasonOf(e)}). ` +
        'Cairn can copy it aside (nothing is deleted: it stays there for recovery) and start a new, empty one; ' +
        'your settings and API keys are kept. The cairn command asks for this when run in a terminal.',
      db,
      { cause: e },
    )
  }
  return null
}

/**
 * SQLite's codes for a file that opened but then fails under a query: a damaged page
 * (`SQLITE_CORRUPT…`), a page that is not SQLite's (`SQLITE_NOTADB`), a read or write the
 * system refused (`SQLITE_IOERR…`, a failing disk or a file changed underneath).
 */
const SQLITE_DAMAGED_LATER = /^SQLITE_(NOTADB|CORRUPT|IOERR)/

/** What a person does about a damaged database that is open (said by the host after it). */
const DAMAGED_DATABASE_ADVICE =
  'Cairn can copy it aside (nothing is deleted: it stays there for recovery) and start a new, empty one; ' +
  'your settings and API keys are kept.'

/**
 * The StorageError that explains `e`, thrown by a query on the open database `file` (or,
 * when the file is not known, Cairn's database in its data directory); null when `e` is
 * not damage. The opening checks passed: the damage is in a part read or written later.
 */
export function explainQueryError(e: unknown, file: string | null): StorageError | null {
  if (e instanceof StorageError) return e
  const code = codeOf(e)
  if (!SQLITE_DAMAGED_LATER.test(code)) return null
  const what = code.startsWith('SQLITE_IOERR')
    ? 'the system could not read or write part of it'
    : 'part of it is damaged'
  return damagedLater(file, `${what} (${reasonOf(e)}, ${code})`, e)
}

/** The StorageError for the open database `file`, damaged as `what` says. */
export function damagedLater(file: string | null, what: string, cause?: unknown): StorageError {
  const where = file ?? `Cairn’s database (${DB_FILE_NAME} in its data directory)`
  return new StorageError(
    'database_damaged',
    `The database ${where} cannot be used: ${what}. ${DAMAGED_DATABASE_ADVICE} ` +
      'The window offers this (“Start a new database”); the cairn command asks for it when run in a terminal.',
    file ?? DB_FILE_NAME,
    cause === undefined ? {} : { cause },
  )
}

/**
 * Moves `cairn.db` (and its `-wal` and `-shm` files) of `dataDir` to
 * `cairn.db.damaged-<time>` (and `…-wal`, `…-shm`). Returns the new path of the database.
 * Only after the user agreed: the next open starts a new database.
 */
export function setDamagedDatabaseAside(dataDir: string, now: () => number = Date.now): string {
  const db = path.join(dataDir, DB_FILE_NAME)
  const stamp = new Date(now()).toISOString().replace(/[-:.]/g, '')
  let target = `${db}.damaged-${stamp}`
  for (let i = 2; fs.existsSync(target); i++) target = `${db}.damaged-${stamp}-${i}`
  fs.renameSync(db, target)
  for (const suffix of ['-wal', '-shm']) {
    try {
      fs.renameSync(`${db}${suffix}`, `${target}${suffix}`)
    } catch (e) {
      if (codeOf(e) !== 'ENOENT') throw e
    }
  }
  return target
}
