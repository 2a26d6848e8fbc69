/**
 * Opening the data directory for a command: a directory Cairn cannot write to, or a damaged
 * database, is said in one clear message (no stack trace). A damaged database is copied
 * aside and a new one started only when the user says yes at the terminal; without a
 * terminal nothing is changed.
 */
import { createInterface } from 'node:readline/promises'
import type { AppServices, OpenAppServicesOptions } from '../services/app-services'

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
  const [{ openAppServices }, { StorageError, setDamagedDatabaseAside }] = await Promise.all([
    import('../services/app-services'),
    import('../adapters/sqlite/open-errors'),
  ])
  try {
    return openAppServices(dataDir, opts)
  } catch (e) {
    if (!(e instanceof StorageError)) throw e
    streams.stderr.write(`cairn: ${e.message}\n`)
    if (e.problem !== 'database_damaged') return 1
    if (!streams.stdin.isTTY) {
      streams.stderr.write('Run cairn in a terminal to be asked whether to start a new database.\n')
      return 1
    }
    const rl = createInterface({ input: streams.stdin, output: streams.stderr })
    const answer = await rl
      .question('Copy the damaged database aside and start a new one? [y/N] ')
      .finally(() => rl.close())
    if (!/^y(es)?$/i.test(answer.trim())) {
      streams.stderr.write('Nothing was changed.\n')
      return 1
    }
    const aside = setDamagedDatabaseAside(dataDir)
    streams.stderr.write(`The damaged database was moved to ${aside}; a new one is started.\n`)
    return openAppServices(dataDir, opts)
  }
}
