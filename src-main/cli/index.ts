/**
 * The `cairn` command. Only what every command needs is imported up front; the model
 * client, the MCP SDK and the tool runtime load when a command uses them, so `--version`,
 * `--help` and `sessions …` start quickly.
 */
import { fileURLToPath } from 'node:url'
import { ExpectedError } from '../core/errors'
import { parseCli, USAGE, UsageError } from './args'
import { exitStatusOf } from './exit-status'
import { guardStream, stripControls } from './terminal-text'
import { withdrawSecretEnv } from '../services/host/secret-env'
import type { AppServices } from '../services/host/app-services'
import type { Streams } from './output'

declare const __CAIRN_VERSION__: string | undefined

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer)
  return Buffer.concat(chunks).toString('utf8')
}

type Parsed = ReturnType<typeof parseCli>
type CliStreams = Streams & { stdin: NodeJS.ReadStream }

async function main(argv: string[]): Promise<number> {
  const parsed = parseOrSay(argv)
  if (typeof parsed === 'number') return parsed
  const { options } = parsed
  // everything printed from here on has its control sequences stripped, unless --raw
  const streams: CliStreams = {
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
  const prompt = await promptOf(parsed)
  if (prompt === null) return 2

  const [
    { resolveDataDir },
    { openDataDir, storageTrouble, tellLateDamage },
    { nodeRuntimeLauncher },
  ] = await Promise.all([
    import('../adapters/data-dir'),
    import('./open-data'),
    import('../services/providers/local-runtime'),
  ])
  const dataDir = resolveDataDir({
    ...(options.dataDir ? { flag: options.dataDir } : {}),
    env: process.env,
  })
  const app = await openDataDir(
    dataDir,
    {
      onWarning: (m) => streams.stderr.write(`Warning: ${m}\n`),
      // the local model runtime: the script built beside this one
      localRuntimeLauncher: nodeRuntimeLauncher(
        fileURLToPath(new URL('./local-runtime.js', import.meta.url)),
      ),
    },
    streams,
  )
  if (typeof app === 'number') return app
  // a damaged database met by a query: told (with what to do) once the command is over
  let damaged: unknown = null
  try {
    return await runCommand(app, parsed, prompt, streams)
  } catch (e) {
    // a damaged database, met by whichever query: said with what to do, no stack trace
    damaged = await storageTrouble(e, dataDir)
    if (damaged) return 1
    // a usage mistake, a file that is not valid, a refusal: said, with its exit status
    if (e instanceof ExpectedError) {
      streams.stderr.write(`cairn: ${e.message}\n`)
      return exitStatusOf(e)
    }
    throw e
  } finally {
    app.close()
    await tellLateDamage(app, damaged, streams)
  }
}

/** The parsed command line, or the exit code of a usage mistake (said with the usage). */
function parseOrSay(argv: string[]): Parsed | number {
  try {
    return parseCli(argv)
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`cairn: ${e.message}\n\n${USAGE}\n`)
      return 2
    }
    throw e
  }
}

/**
 * The prompt of a one-turn command (its words, or stdin), '' for the others, or null when
 * the prompt is missing or not wanted (said with the usage).
 */
async function promptOf({ command, positionals, options }: Parsed): Promise<string | null> {
  const refuse = (why: string): null => {
    process.stderr.write(`cairn: ${why}\n\n${USAGE}\n`)
    return null
  }
  if (command === 'chat' && positionals.length > 0)
    return refuse('chat takes no prompt; type it at its prompt')
  // each sentence said is the prompt: words or --mcp-prompt would be left unsent
  if (command === 'turn' && options.voice && (positionals.length > 0 || options.mcpPrompt))
    return refuse('--voice takes no prompt; say it once it listens')
  // with --mcp-prompt, the words are the prompt's arguments (name=value)
  if (command !== 'turn' || options.mcpPrompt || options.voice) return ''
  let prompt = positionals.join(' ').trim()
  if (!prompt && !process.stdin.isTTY) prompt = (await readStdin()).trim()
  // files alone are a message too
  if (!prompt && options.attach.length > 0) return ''
  return prompt || refuse('give a prompt as an argument or on stdin')
}

/** Runs the command on the open data directory; its exit code. */
async function runCommand(
  app: AppServices,
  parsed: Parsed,
  prompt: string,
  streams: CliStreams,
): Promise<number> {
  const { command, positionals, options } = parsed
  const { resolveSessionId } = await import('./session-id')
  // --session takes a unique beginning of an id, as `cairn sessions list` shows them
  if (options.session) options.session = resolveSessionId(app, options.session)
  if (options.from !== undefined && (command !== 'turn' || !options.session)) {
    throw new UsageError(
      '--from goes with --session, for one turn: cairn --session <id> --from <message> "…"',
    )
  }
  if (command === 'sessions') {
    const { sessionsCommand } = await import('./sessions')
    return await sessionsCommand(app, positionals, options, streams)
  }
  if (command === 'assistants' || options.assistant) {
    const { assistantsCommand, resolveAssistant } = await import('./assistants')
    if (command === 'assistants') return await assistantsCommand(app, positionals, options, streams)
    // --assistant takes a name (or an id); the turn gets the id
    if (options.assistant) options.assistant = resolveAssistant(app, options.assistant).id
  }
  if (command === 'skills') {
    const { skillsCommand } = await import('./skills')
    return await skillsCommand(app, positionals, options, streams)
  }
  const turnProject = options.project && (command === 'turn' || command === 'chat')
  if (command === 'projects' || turnProject) {
    const { projectsCommand, projectForTurn } = await import('./projects')
    if (command === 'projects') return projectsCommand(app, positionals, options, streams)
    // --project on a turn takes a name (or an id); a new chat's turn gets the id
    if (options.project) options.project = projectForTurn(app, options.project, options.session)
  }
  if (command === 'models') {
    const { modelsCommand } = await import('./models')
    return await modelsCommand(app, positionals, options, streams)
  }
  if (command === 'usage') {
    const { usageCommand } = await import('./usage')
    return usageCommand(app, positionals, options, streams)
  }
  if (command === 'knowledge') {
    const { knowledgeCommand } = await import('./knowledge')
    return await knowledgeCommand(app, positionals, options, streams)
  }
  if (command === 'mcp') {
    const { mcpCommand } = await import('./mcp')
    return await mcpCommand(app, positionals, options, streams)
  }
  return await runWithTools(app, parsed, prompt, streams)
}

/** `chat`, `--voice` or one turn: with the MCP servers and built-in tools started for it. */
async function runWithTools(
  app: AppServices,
  { positionals, options, command }: Parsed,
  prompt: string,
  streams: CliStreams,
): Promise<number> {
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
    if (command === 'chat') {
      const { chatCommand } = await import('./repl/chat')
      return await chatCommand(app, tools, options, streams, env)
    }
    if (options.voice) {
      const { voiceCommand } = await import('./voice-command')
      return await voiceCommand(app, tools, options, streams, env)
    }
    return await runTurnCommand(app, tools, prompt, options, streams, env, positionals)
  } finally {
    await tools.shutdown()
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
