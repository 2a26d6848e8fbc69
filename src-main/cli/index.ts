import { resolveDataDir } from '../adapters/data-dir'
import { openAppServices } from '../services/app-services'
import { parseCli, USAGE, UsageError } from './args'
import { runTurnCommand } from './run-turn'
import { resolveSessionId } from './session-id'
import { sessionsCommand } from './sessions'
import { mcpCommand } from './mcp'
import { McpConfigError, readMcpConfigFile } from '../adapters/mcp/config'
import { startToolRuntime } from '../services/tool-runtime'

declare const __CAIRN_VERSION__: string | undefined

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function main(argv: string[]): Promise<number> {
  const streams = { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin }
  let parsed
  try {
    parsed = parseCli(argv)
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`cairn: ${e.message}\n\n${USAGE}\n`)
      return 2
    }
    throw e
  }
  const { options } = parsed
  if (options.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (options.version) {
    process.stdout.write(`${typeof __CAIRN_VERSION__ === 'string' ? __CAIRN_VERSION__ : 'dev'}\n`)
    return 0
  }

  let prompt = ''
  if (parsed.command === 'turn') {
    prompt = parsed.positionals.join(' ').trim()
    if (!prompt && !process.stdin.isTTY) prompt = (await readStdin()).trim()
    if (!prompt) {
      process.stderr.write(`cairn: give a prompt as an argument or on stdin\n\n${USAGE}\n`)
      return 2
    }
  }

  const dataDir = resolveDataDir({
    ...(options.dataDir ? { flag: options.dataDir } : {}),
    env: process.env,
  })
  const app = openAppServices(dataDir, {
    onWarning: (m) => process.stderr.write(`Warning: ${m}\n`),
  })
  try {
    // --session takes a unique beginning of an id, as `cairn sessions list` shows them
    if (options.session) options.session = resolveSessionId(app, options.session)
    if (parsed.command === 'sessions')
      return await sessionsCommand(app, parsed.positionals, options, streams)
    if (parsed.command === 'mcp') return await mcpCommand(app, parsed.positionals, options, streams)
    // a --mcp-config file replaces the configured servers for this run
    const override = options.mcpConfig ? readMcpConfigFile(options.mcpConfig) : undefined
    const tools = await startToolRuntime(app, {
      ...(override ? { override } : {}),
      warn: (m) => process.stderr.write(`Warning: ${m}\n`),
    })
    try {
      return await runTurnCommand(app, tools, prompt, options, streams, process.env)
    } finally {
      await tools.shutdown()
    }
  } catch (e) {
    if (e instanceof UsageError || e instanceof McpConfigError) {
      process.stderr.write(`cairn: ${e.message}\n`)
      return 2
    }
    throw e
  } finally {
    app.close()
  }
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code
    // whatever still holds the event loop open must not keep a finished command alive
    setTimeout(() => process.exit(code), 3000).unref()
  },
  (e: unknown) => {
    process.stderr.write(
      `cairn: unexpected error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`,
    )
    process.exit(1)
  },
)
