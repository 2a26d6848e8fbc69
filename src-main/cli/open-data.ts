/**
 * Opening the data directory for a command: a directory Cairn cannot write to, or a damaged
 * database, is said in one clear message (no stack trace). A damaged database is copied
 * aside and a new one started only when the user says yes at the terminal; without a
 * terminal nothing is changed. Damage a query finds later (the file opened) is told the
 * same way once the command is over, with the same question.
 */
import path from 'node:path'
import { createInterface } from 'node:readline/promises'
import { ExpectedError } from '../core/errors'
import type { AppServices, OpenAppServicesOptions } from '../services/host/app-services'

interface Streams {
  stderr: NodeJS.WritableStream
  stdin: NodeJS.ReadableStream & { isTTY?: boolean }
}

/** The services, or the exit code after the problem was told. */
export async function openDataDir(
  dataDir: string,
  opts: OpenAppServicesOptions,
  streams: Streams,
): Promise<AppServices | number> {
  const [{ openAppServices }, { setDamagedDatabaseAside }] = await Promise.all([
    import('../services/host/app-services'),
    import('../adapters/sqlite/open-errors'),
  ])
  try {
    return openAppServices(dataDir, opts)
  } catch (e) {
    // a directory it cannot write to, a damaged database, one a newer Cairn wrote
    if (!(e instanceof ExpectedError)) throw e
    streams.stderr.write(`cairn: ${e.message}\n`)
    if (e.code !== 'database_damaged') return 1
    if (!streams.stdin.isTTY) {
      streams.stderr.write('Run cairn in a terminal to be asked whether to start a new database.\n')
      return 1
    }
    if (!(await agreed(streams))) {
      streams.stderr.write('Nothing was changed.\n')
      return 1
    }
    const aside = setDamagedDatabaseAside(dataDir)
    streams.stderr.write(`The damaged database was moved to ${aside}; a new one is started.\n`)
    return openAppServices(dataDir, opts)
  }
}

/** Asks at the terminal whether to copy the damaged database aside; true on a yes. */
async function agreed(streams: Streams): Promise<boolean> {
  const rl = createInterface({ input: streams.stdin, output: streams.stderr })
  const answer = await rl
    .question('Copy the damaged database aside and start a new one? [y/N] ')
    .finally(() => rl.close())
  return /^y(es)?$/i.test(answer.trim())
}

/**
 * The StorageError a command's failure `e` is, when it is one (a damaged database met by a
 * query, whatever read it), else null. `open-errors` is loaded once the data was opened.
 */
export async function storageTrouble(e: unknown, dataDir: string): Promise<Error | null> {
  const { explainQueryError, StorageError } = await import('../adapters/sqlite/open-errors')
  const { DB_FILE_NAME } = await import('../adapters/sqlite/database')
  if (e instanceof StorageError) return e
  return explainQueryError(e, path.join(dataDir, DB_FILE_NAME))
}

/**
 * After a command, on a database that opened: damage a query met (`thrown` by the command,
 * or found by a turn, which said so in its error already) is told with what to do. At a
 * terminal the user is asked whether to copy the database aside now, so that the next
 * command starts a new one; without one, how to do it is said. Closes `app` first. False
 * when there was no damage.
 */
export async function tellLateDamage(
  app: AppServices,
  thrown: unknown,
  streams: Streams,
): Promise<boolean> {
  const { StorageError, setDamagedDatabaseAside } = await import('../adapters/sqlite/open-errors')
  const damage = thrown instanceof StorageError ? thrown : app.store.damage
  if (!damage) return false
  app.close()
  if (thrown === damage) streams.stderr.write(`cairn: ${damage.message}\n`)
  if (damage.code !== 'database_damaged') return true
  if (!streams.stdin.isTTY) {
    streams.stderr.write(
      'Run the command again in a terminal to be asked whether to copy it aside and start a new one, ' +
        `or, while no Cairn is running, move ${damage.path} (and its -wal and -shm files) elsewhere yourself.\n`,
    )
    return true
  }
  if (!(await agreed(streams))) {
    streams.stderr.write('Nothing was changed.\n')
    return true
  }
  try {
    const aside = setDamagedDatabaseAside(app.dataDir)
    streams.stderr.write(
      `The damaged database was moved to ${aside}; the next cairn command starts a new one.\n`,
    )
  } catch (e) {
    streams.stderr.write(
      `cairn: could not move ${damage.path} aside: ${e instanceof Error ? e.message : String(e)}\n`,
    )
  }
  return true
}
