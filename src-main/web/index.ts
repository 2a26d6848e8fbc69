/**
 * `npm run web`: Cairn in a browser tab. Prints
 * `Cairn is running at http://127.0.0.1:<port>/?token=<token>`.
 */
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { resolveDataDir } from '../adapters/data-dir'
import { setDamagedDatabaseAside, StorageError } from '../adapters/sqlite/open-errors'
import { createAppHost, type AppHost } from '../services/host/app-host'
import { nodeRuntimeLauncher } from '../services/providers/local-runtime'
import { stopOnSignals } from '../services/host/signals'
import { startWebServer, type WebServer, type WebServerOptions } from './server'
import { openBrowserAt } from './open-page'
import { loadWebToken } from './token-file'

declare const __CAIRN_VERSION__: string | undefined

const USAGE = `Usage: npm run web -- [--port <n>] [--host <address>] [--data-dir <dir>] [--mcp-config <file>] [--no-open] [--new-token] [--replace-damaged-database]
  --port 0 picks a free port (the default is 4319)
  --new-token makes a new access token: addresses printed before, and tabs open with them, stop working
    (the token is kept in <data dir>/web-token, so a restart keeps open tabs working)
  --host another address than 127.0.0.1 exposes Cairn beyond this machine: only with care
  --replace-damaged-database when cairn.db is damaged, copies it aside (it is kept) and starts a new one`

async function main(): Promise<void> {
  const values = readFlags()
  if (values.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  const port = Number(values.port)
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`--port must be a port number, not "${values.port}"\n`)
    process.exit(2)
  }
  if (values.host !== '127.0.0.1' && values.host !== 'localhost') {
    process.stderr.write(
      `Warning: listening on ${values.host}: anyone who can reach this address and learns the token can use Cairn, its tools and your API keys.\n`,
    )
  }
  const dataDir = resolveDataDir({
    ...(values['data-dir'] ? { flag: values['data-dir'] } : {}),
    env: process.env,
  })
  const host = await openHost(dataDir, values)
  const credentials = loadWebToken(dataDir, {
    rotate: values['new-token'],
    onWarning: (m) => process.stderr.write(`Warning: ${m}\n`),
  })
  const server = await serve(
    host,
    port,
    values.host === 'localhost' ? '127.0.0.1' : values.host,
    credentials,
  )
  process.stdout.write(`Cairn is running at ${server.url}\n`)
  if (values['new-token'])
    process.stderr.write(
      'A new access token was made: tabs opened with an earlier address must open this one.\n',
    )
  if (!values['no-open']) await openBrowserAt(server, dataDir, process.env)

  stopOnSignals((code) => {
    process.stderr.write('Stopping Cairn (running turns are saved)…\n')
    void server
      .close()
      .then(() => host.shutdown())
      .finally(() => process.exit(code))
  })
}

/** the flags, or the usage and exit code 2 */
function readFlags() {
  try {
    return parseArgs({
      options: {
        port: { type: 'string', default: '4319' },
        host: { type: 'string', default: '127.0.0.1' },
        'data-dir': { type: 'string' },
        'mcp-config': { type: 'string' },
        'no-open': { type: 'boolean', default: false },
        'new-token': { type: 'boolean', default: false },
        'replace-damaged-database': { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
    }).values
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n${USAGE}\n`)
    process.exit(2)
  }
}

type Flags = ReturnType<typeof readFlags>

/**
 * The engine on the data directory. A damaged database stops the start, saying how to
 * replace it; with --replace-damaged-database it is moved aside and a new one started.
 */
async function openHost(dataDir: string, values: Flags): Promise<AppHost> {
  const open = () =>
    createAppHost({
      dataDir,
      hostKind: 'web',
      version: typeof __CAIRN_VERSION__ === 'string' ? __CAIRN_VERSION__ : 'dev',
      env: process.env,
      ...(values['mcp-config'] ? { mcpConfigFile: values['mcp-config'] } : {}),
      onWarning: (m) => process.stderr.write(`Warning: ${m}\n`),
      // the local model runtime: the script built beside this one
      localRuntimeLauncher: nodeRuntimeLauncher(
        fileURLToPath(new URL('./local-runtime.js', import.meta.url)),
      ),
    })
  try {
    return await open()
  } catch (e) {
    if (!(e instanceof StorageError) || e.code !== 'database_damaged') throw e
    if (!values['replace-damaged-database']) {
      // under npm, an option before `--` is npm's own and never reaches Cairn
      const again =
        process.env['npm_lifecycle_event'] === 'web'
          ? 'npm run web -- --replace-damaged-database'
          : '--replace-damaged-database'
      process.stderr.write(
        `Cairn could not start: ${e.message}\nTo do that, start it again with ${again}.\n`,
      )
      process.exit(1)
    }
    const aside = setDamagedDatabaseAside(dataDir)
    process.stderr.write(`The damaged database was moved to ${aside}; a new one is started.\n`)
    return await open()
  }
}

/** The HTTP server on `port`; a port in use stops the start, saying what to do. */
async function serve(
  host: AppHost,
  port: number,
  bind: string,
  credentials: NonNullable<WebServerOptions['credentials']>,
): Promise<WebServer> {
  const staticDir = fileURLToPath(new URL('../renderer/', import.meta.url))
  try {
    return await startWebServer({
      host,
      staticDir,
      port,
      bind,
      ...(credentials ? { credentials } : {}),
    })
  } catch (e) {
    await host.shutdown()
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(
        `Cairn could not start: port ${port} is in use (another Cairn, or another program).\n` +
          `Stop that program, or choose another port: npm run web -- --port 0 picks a free one.\n`,
      )
      process.exit(1)
    }
    throw e
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`Cairn could not start: ${e instanceof Error ? e.message : String(e)}\n`)
  process.exit(1)
})
