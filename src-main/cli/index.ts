/**
 * The `cairn` command. Only what every command needs is imported up front; the model
 * client, the MCP SDK and the tool runtime load when a command uses them, so `--version`,
 * `--help` and `sessions …` start quickly.
 */
import { parseCli, USAGE, UsageError } from './args'
import { guardStream, stripControls } from './terminal-text'
import { withdrawSecretEnv } from '../services/host/secret-env'

declare const __CAIRN_VERSION__: string | undefined

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

async function main(argv: string[]): Promise<number> {
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
  // everything printed from here on has its control sequences stripped, unless --raw
  const streams = {
    stdout: options.raw ? process.stdout : guardStream(process.stdout),
    stderr: options.raw ? process.stderr : guardStream(process.stderr),
    stdin: process.stdin,
  }
  if (options.help) {
    process.stdout.write(`${USAGE}\n`)
    return 0
  }
  if (options.version) {
    process.stdout.write(`${typeof __CAIRN_VERSION__ === 'string' ? __CAIRN_VERSION__ : 'dev'}\n`)
    return 0
  }

  let prompt = ''
  if (parsed.command === 'chat' && parsed.positionals.length > 0) {
    process.stderr.write(`cairn: chat takes no prompt; type it at its prompt\n\n${USAGE}\n`)
    return 2
  }
  // each sentence said is the prompt: words or --mcp-prompt would be left unsent
  if (
    parsed.command === 'turn' &&
    options.voice &&
    (parsed.positionals.length > 0 || options.mcpPrompt)
  ) {
    process.stderr.write(`cairn: --voice takes no prompt; say it once it listens\n\n${USAGE}\n`)
    return 2
  }
  // with --mcp-prompt, the words are the prompt's arguments (name=value)
  if (parsed.command === 'turn' && !options.mcpPrompt && !options.voice) {
    prompt = parsed.positionals.join(' ').trim()
    if (!prompt && !process.stdin.isTTY) prompt = (await readStdin()).trim()
    if (!prompt) {
      process.stderr.write(`cairn: give a prompt as an argument or on stdin\n\n${USAGE}\n`)
      return 2
    }
  }

  const [
    { resolveDataDir },
    { openDataDir, storageTrouble, tellLateDamage },
    { resolveSessionId },
    { sessionsCommand },
  ] = await Promise.all([
    import('../adapters/data-dir'),
    import('./open-data'),
    import('./session-id'),
    import('./sessions'),
  ])
  const dataDir = resolveDataDir({
    ...(options.dataDir ? { flag: options.dataDir } : {}),
    env: process.env,
  })
  const app = await openDataDir(
    dataDir,
    { onWarning: (m) => streams.stderr.write(`Warning: ${m}\n`) },
    streams,
  )
  if (typeof app === 'number') return app
  // a damaged database met by a query: told (with what to do) once the command is over
  let damaged: unknown = null
  try {
    // --session takes a unique beginning of an id, as `cairn sessions list` shows them
    if (options.session) options.session = resolveSessionId(app, options.session)
    if (parsed.command === 'sessions')
      return await sessionsCommand(app, parsed.positionals, options, streams)
    if (parsed.command === 'assistants' || options.assistant) {
      const { assistantsCommand, resolveAssistant } = await import('./assistants')
      if (parsed.command === 'assistants')
        return await assistantsCommand(app, parsed.positionals, options, streams)
      // --assistant takes a name (or an id); the turn gets the id
      if (options.assistant) options.assistant = resolveAssistant(app, options.assistant).id
    }
    if (parsed.command === 'mcp') {
      const { mcpCommand } = await import('./mcp')
      return await mcpCommand(app, parsed.positionals, options, streams)
    }
    const [{ readMcpConfigFile }, { startToolRuntime }, { runTurnCommand }] = await Promise.all([
      import('../adapters/mcp/config'),
      import('../services/tools/tool-runtime'),
      import('./run-turn'),
    ])
    // the API keys stay in this copy: commands and servers started from here on never inherit them
    const env = withdrawSecretEnv(process.env)
    // a --mcp-config file replaces the configured servers for this run
    const override = options.mcpConfig ? readMcpConfigFile(options.mcpConfig) : undefined
    const tools = await startToolRuntime(app, {
      ...(override ? { override } : {}),
      warn: (m) => streams.stderr.write(`Warning: ${m}\n`),
    })
    try {
      if (parsed.command === 'chat') {
        const { chatCommand } = await import('./repl/chat')
        return await chatCommand(app, tools, options, streams, env)
      }
      if (options.voice) {
        const { voiceCommand } = await import('./voice-command')
        return await voiceCommand(app, tools, options, streams, env)
      }
      return await runTurnCommand(app, tools, prompt, options, streams, env, parsed.positionals)
    } finally {
      await tools.shutdown()
    }
  } catch (e) {
    // a usage mistake or an unreadable --mcp-config file (McpConfigError, loaded lazily)
    if (e instanceof UsageError || (e instanceof Error && e.name === 'McpConfigError')) {
      streams.stderr.write(`cairn: ${e.message}\n`)
      return 2
    }
    // a damaged database, met by whichever query: said with what to do, no stack trace
    damaged = await storageTrouble(e, dataDir)
    if (damaged) return 1
    throw e
  } finally {
    app.close()
    await tellLateDamage(app, damaged, streams)
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
      `cairn: unexpected error: ${stripControls(e instanceof Error ? (e.stack ?? e.message) : String(e))}\n`,
    )
    process.exit(1)
  },
)
