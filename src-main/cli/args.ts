import { parseArgs, type ParseArgsConfig } from 'node:util'
import { ExpectedError } from '../core/errors'

/** The command line is wrong: said (with the usage where it helps), exit status 2. */
export class UsageError extends ExpectedError<'bad_request'> {
  constructor(message: string) {
    super('bad_request', message)
    this.name = 'UsageError'
  }
}

/** `KEY=VALUE` items of a repeatable flag (`--env`, `--header`) as an object */
export function keyValuePairs(list: string[], flag: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const item of list) {
    const eq = item.indexOf('=')
    if (eq <= 0) throw new UsageError(`${flag} takes KEY=VALUE, not "${item}"`)
    out[item.slice(0, eq)] = item.slice(eq + 1)
  }
  return out
}

export const USAGE = `Usage:
  cairn [options] "prompt"          run one turn (or give the prompt on stdin); @server:uri
                                    in the prompt attaches that MCP resource
  cairn --attach <file> [--attach <file> …] ["prompt"]
                                    send files with the prompt (images, PDF, Office and
                                    OpenDocument files, text); the prompt may be left out
  cairn [options] --mcp-prompt <server>:<prompt> [name=value …]
                                    run one turn with a server's prompt as the message
  cairn chat [options]              a conversation on the terminal (/help lists its commands);
                                    without a terminal, each line of stdin is a turn;
                                    with --voice it listens from the start
  cairn --voice [options]           listen (speech-to-text MCP server) and answer each
                                    sentence as a turn, until Ctrl-C
  cairn sessions list [--json]      list sessions, newest first
  cairn sessions show <id> [--json] show a session's open branch, each message with its
                                    number (an id may be given by its beginning, as long as
                                    one session's id starts so); --json: every message of
                                    the tree with its id and parent, and the open branch
  cairn sessions show <id> --tree   draw the whole tree: every branch, with message numbers
  cairn sessions fork <id> --at <message>
                                    a new chat holding the path up to that message (its
                                    number as sessions show prints it, or its id)
  cairn sessions search <text> [--json]
  cairn sessions export <id> --format md|json [--out <file>]
                                    to stdout, or into <file>: JSON embeds the attached
                                    files; Markdown writes them in <file>-attachments/ beside it
  cairn sessions import <file> [--json]
                                    bring chats from ChatGPT's or Claude's data export
                                    (conversations.json or the .zip) or a Cairn JSON
                                    export; importing again adds only what is new
  cairn sessions delete <id>
  cairn projects list [--json]      the projects (chats grouped with instructions and a folder)
  cairn projects show <name> [--json]
  cairn projects create <name> [--instructions <text>] [--workspace <dir>]
                                    [--assistant <name>] [--model <name>]
  cairn projects edit <name> [--name <new name>] [--instructions <text>] [--workspace <dir>]
                                    [--assistant <name>] [--model <name>]
                                    [--unset assistant|model|workspace]   change only what is given
  cairn projects delete <name>      its chats move to "No project" (none is deleted)
  cairn usage [--since <date>] [--until <date>] [--by model|provider|day|chat] [--json]
                                    what the stored answers used and cost (default: all of
                                    it, by model; a date is YYYY-MM-DD in the host's time,
                                    --until excluded)
  cairn models list [--json]        the local models (Cairn runs them itself: --provider local)
  cairn models add <file.gguf> [--name <name>]   copy a GGUF model into the data directory
  cairn models pull <owner/name> [--file <name.gguf>] [--name <name>]
                                    download a GGUF model from Hugging Face (the setting
                                    localModels.hubURL); resumed when run again after an
                                    interruption, checked against its sha256
  cairn models remove <name>
  cairn assistants list [--json]    the assistants (a chat runs with one: --assistant <name>)
  cairn assistants show <name> [--json]
  cairn assistants tools <name> [--json] [--mcp-config <file>]
                                    the tools a turn with it would offer the model now
  cairn assistants create <name> [assistant options]
  cairn assistants edit <name> [assistant options]   change only what is given
  cairn assistants duplicate <name> [--name <new name>]
  cairn assistants delete <name>    (not the default one; its sessions keep a copy)
  cairn assistants export <name> [file]   as JSON (stdout without a file), no secrets
  cairn assistants import <file> [--allow-policy]   a file from export (- reads stdin); its
                                    permission policy is applied only with --allow-policy when it
                                    asks less than the settings' (else it follows the settings')
  cairn knowledge add <path>… --project <name>   index files and folders for a project
                                    (waits for the index; skipped and failed files say why)
  cairn knowledge status [--project <name>] [--json]   each source, and every file not indexed
  cairn knowledge search <query> [--project <name>] [--json]
                                    chunks with their file, place (lines or page) and score
  cairn knowledge remove <path> [--project <name>]     a source and its chunks
  cairn knowledge reindex [--project <name>]           read every file again
  cairn mcp list [--json] [--mcp-config <file>]   start the MCP servers, show their status and tools
  cairn mcp add <name> -- <command> [args…]       add a stdio server (--env KEY=VALUE, repeatable)
  cairn mcp add <name> --url <url>                add an HTTP server (--header KEY=VALUE, repeatable)
  cairn mcp remove|enable|disable <name>
  cairn mcp trust|untrust <name>                  believe (or not) the server's read-only hints
  cairn mcp import-claude [--file <path>]         import Claude Desktop's servers, disabled for review
  cairn mcp login|logout <name>                   log in to a server with a URL in the browser (OAuth), or forget its tokens
  cairn mcp search <words> [--json]               servers of the MCP registry (the setting mcpRegistryUrl)
  cairn mcp install <registry name> [--name <name>] [--use package:N|remote:N]
                                    [--env NAME=value] [--env arg:N=value] [--header NAME=value]
                                    show who publishes it and what it runs, and add it
                                    switched off (enable it after review)
  cairn skills list [--json] [--assistant <name>]   the skills use_skill reads (SKILL.md folders
                                    in the data directory's skills/, and the assistant's)
  cairn skills show <name> [file]   a skill's SKILL.md, or one file of its folder
  cairn mcp install <file.mcpb> [--name <name>] [--set key=value]…
                                    a Claude Desktop extension: unpacked into the data
                                    directory, shown (author, tools, settings, what it runs)
                                    and added switched off; --set gives its settings (repeat
                                    a key for several values; sensitive ones go to secrets.json)

Options:
  --base-url <url>        an OpenAI-compatible endpoint (else CAIRN_BASE_URL, OPENAI_BASE_URL,
                          the settings' active provider, a local server found running)
  --api-key <key>         else CAIRN_API_KEY, else OPENAI_API_KEY (prefer the environment:
                          a flag is visible to other users in the process list)
  --provider <id>         a provider of the settings by its id, or local (Cairn's own runtime
                          for the local models); unset: the active one
  --model <name>          the model, and a continued session's model from now on; without it
                          a continued session keeps its own model
  --session <id>          continue that session (its id, or a unique beginning of it)
  --from <message>        with --session: the message goes after that earlier message (its
                          number as sessions show prints it, or its id), on a new branch
  --approve <mode>        ask | all | none | read-only (default: settings, else ask)
  --json                  one event object per line on stdout, nothing else there
  --raw                   print model text, tool output and names as they are, escape
                          sequences included (by default they are stripped)
  --data-dir <dir>        else CAIRN_DATA_DIR, else the desktop app's data directory
  --max-iterations <n>    LLM calls per turn (default 50)
  --deadline-ms <ms>      time budget of the turn (default 30 minutes)
  --context-window <n>    the model's context window in tokens for this run (default: what the
                          server says, else known models, else the settings' limits.contextTokens)
  --think on|off          switch the model's thinking, where it can be switched (Ollama, OpenAI
                          reasoning models, Qwen 3 on vLLM and llama.cpp, OpenRouter)
  --mcp-config <file>     MCP servers for this run (Claude Desktop format)
  --mcp-prompt <s>:<p>    send the MCP server s's prompt p (its arguments as name=value)
  --attach <file>         attach a file to the message (repeatable)
  --voice                 a headless voice session (see above)
  --workspace <dir>       the folder the built-in file tools may use (default ~/Cairn)
  --assistant <name>      run with this assistant (a new session starts with it; --session
                          switches that session to it); default: the session's own, else
                          the default assistant
  --project <name>        a new chat in this project (its instructions, assistant, model and
                          folder); a --session in a project stays in its own

Assistant options (create, edit):
  --name <name>           a new name (edit)
  --description <text>
  --prompt <text>         its system prompt ("" for none; unset: the settings' prompt)
  --provider <id>         a provider of the settings (unset: the active one)
  --model <name>          its model (unset: the provider's)
  --utility-model <name>  the model that writes summaries and titles
  --temperature <t>       0 to 2 (unset: the server's default)
  --tools <list>          what the model is offered, comma-separated: all | none |
                          <built-in tool> | builtin:* | <server>:<tool> | <server>:* | mcp:*
                          e.g. --tools read_file,search_files,git:*   (default for create: all)
  --policy <policy>       ask | allow-all | deny-all | read-only (unset: the settings')
  --max-iterations <n>, --deadline-ms <ms>, --workspace <dir>   its limits and folder
  --unset <field>         back to the settings' value (repeatable): description, prompt,
                          provider, model, utility-model, temperature, policy,
                          max-iterations, deadline-ms, workspace
  -h, --help              this text
  -v, --version           the version

Environment:
  CAIRN_BASE_URL          the endpoint when --base-url is not given; it replaces the settings'
                          provider (their stored key and headers are not used with it)
  OPENAI_BASE_URL         the same, when CAIRN_BASE_URL is not set
  CAIRN_API_KEY           the API key when --api-key is not given, for whichever endpoint is
                          used (over a key stored in the settings)
  OPENAI_API_KEY          the same, when CAIRN_API_KEY is not set
  CAIRN_MODEL             the model of a new session (or of one that has none) when --model
                          is not given, before the settings' model; a continued session
                          keeps its own model
  CAIRN_UTILITY_MODEL     the model that summarizes long conversations, on the same endpoint,
                          over the provider's "utility model" setting (unset: the session's)
  CAIRN_LOCAL_SERVERS     comma-separated base URLs to probe, instead of Ollama (11434),
                          LM Studio (1234) and llama.cpp (8080), when no endpoint is configured
  CAIRN_DATA_DIR          the data directory when --data-dir is not given

Exit codes: 0 completed, 1 error, 2 usage error, 3 stopped by a limit, a loop or a
stop policy, 130 interrupted (SIGINT), 143 terminated (SIGTERM).`

export type ApproveMode = 'ask' | 'all' | 'none' | 'read-only'

export interface CliOptions {
  baseUrl?: string
  apiKey?: string
  model?: string
  session?: string
  /** --from: the message (number or id) the new one follows, on a new branch */
  from?: string
  /** sessions show --tree */
  tree: boolean
  /** sessions fork --at */
  at?: string
  approve?: ApproveMode
  json: boolean
  /** print untrusted text with its control sequences (they are stripped by default) */
  raw: boolean
  dataDir?: string
  maxIterations?: number
  deadlineMs?: number
  contextWindow?: number
  think?: boolean
  mcpConfig?: string
  /** `server:prompt`: a server's prompt as the message of a one-shot turn */
  mcpPrompt?: string
  /** `sessions export --out <file>` */
  out?: string
  /** files attached to the message (`--attach`, in order) */
  attach: string[]
  /** a headless voice session */
  voice: boolean
  workspace?: string
  /** the assistant of the turn (a name; the command line resolves it to an id) */
  assistant?: string
  /** --project: a new chat's project; `knowledge …`: the project whose sources are meant (a name) */
  project?: string
  /** projects create|edit: the instructions */
  instructions?: string
  /** assistants create|edit: what the assistant is set to */
  assistantFields: {
    name?: string
    description?: string
    prompt?: string
    provider?: string
    utilityModel?: string
    temperature?: string
    tools?: string
    policy?: string
    unset: string[]
  }
  /** `cairn usage`: the period and the grouping, as typed (checked by the command) */
  usage: { since?: string; until?: string; by?: string }
  /** assistants import: apply the file's permission policy even when it asks less than yours */
  allowPolicy: boolean
  format?: 'md' | 'json'
  url?: string
  headers: string[]
  env: string[]
  file?: string
  /** mcp install: which of the registry server's ways to run (`package:N`, `remote:N`) */
  use?: string
  /** mcp install <file.mcpb>: an extension's settings, `key=value` */
  set: string[]
  help: boolean
  version: boolean
}

export interface ParsedCommand {
  command:
    | 'turn'
    | 'sessions'
    | 'mcp'
    | 'chat'
    | 'assistants'
    | 'projects'
    | 'models'
    | 'usage'
    | 'knowledge'
    | 'skills'
  positionals: string[]
  options: CliOptions
}

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0)
    throw new UsageError(`${name} must be a positive whole number, not "${value}"`)
  return n
}

/** the flags `cairn` takes (values checked and typed by `parseCli`) */
const FLAGS = {
  'base-url': { type: 'string' },
  'api-key': { type: 'string' },
  model: { type: 'string' },
  session: { type: 'string' },
  from: { type: 'string' },
  tree: { type: 'boolean', default: false },
  at: { type: 'string' },
  approve: { type: 'string' },
  json: { type: 'boolean', default: false },
  raw: { type: 'boolean', default: false },
  'data-dir': { type: 'string' },
  'max-iterations': { type: 'string' },
  'deadline-ms': { type: 'string' },
  'context-window': { type: 'string' },
  think: { type: 'string' },
  'mcp-config': { type: 'string' },
  'mcp-prompt': { type: 'string' },
  attach: { type: 'string', multiple: true },
  voice: { type: 'boolean', default: false },
  workspace: { type: 'string' },
  assistant: { type: 'string' },
  project: { type: 'string' },
  instructions: { type: 'string' },
  name: { type: 'string' },
  description: { type: 'string' },
  prompt: { type: 'string' },
  provider: { type: 'string' },
  'utility-model': { type: 'string' },
  temperature: { type: 'string' },
  tools: { type: 'string' },
  policy: { type: 'string' },
  unset: { type: 'string', multiple: true },
  'allow-policy': { type: 'boolean', default: false },
  format: { type: 'string' },
  out: { type: 'string' },
  url: { type: 'string' },
  header: { type: 'string', multiple: true },
  env: { type: 'string', multiple: true },
  file: { type: 'string' },
  since: { type: 'string' },
  until: { type: 'string' },
  by: { type: 'string' },
  use: { type: 'string' },
  set: { type: 'string', multiple: true },
  help: { type: 'boolean', short: 'h', default: false },
  version: { type: 'boolean', short: 'v', default: false },
} as const satisfies ParseArgsConfig['options']

function readFlags(argv: string[]) {
  try {
    return parseArgs({ args: argv, allowPositionals: true, strict: true, options: FLAGS })
  } catch (e) {
    throw new UsageError((e as Error).message)
  }
}

type Flags = ReturnType<typeof readFlags>['values']

export function parseCli(argv: string[]): ParsedCommand {
  const parsed = readFlags(argv)
  const options = optionsOf(parsed.values)
  const [first, ...rest] = parsed.positionals
  if (first === 'sessions') return { command: 'sessions', positionals: rest, options }
  if (first === 'mcp') return { command: 'mcp', positionals: rest, options }
  if (first === 'assistants') return { command: 'assistants', positionals: rest, options }
  if (first === 'projects') return { command: 'projects', positionals: rest, options }
  if (first === 'models') return { command: 'models', positionals: rest, options }
  if (first === 'chat') return { command: 'chat', positionals: rest, options }
  if (first === 'usage') return { command: 'usage', positionals: rest, options }
  if (first === 'knowledge') return { command: 'knowledge', positionals: rest, options }
  if (first === 'skills') return { command: 'skills', positionals: rest, options }
  return { command: 'turn', positionals: parsed.positionals, options }
}

/** The options the flags say, each checked: a bad value is a usage error that names it. */
function optionsOf(v: Flags): CliOptions {
  const approve = v.approve
  if (approve !== undefined && !['ask', 'all', 'none', 'read-only'].includes(approve)) {
    throw new UsageError(`--approve must be ask, all, none or read-only, not "${approve}"`)
  }
  const format = v.format
  if (format !== undefined && format !== 'md' && format !== 'json') {
    throw new UsageError(`--format must be md or json, not "${format}"`)
  }
  const options: CliOptions = {
    ...(v['base-url'] !== undefined ? { baseUrl: v['base-url'] } : {}),
    ...(v['api-key'] !== undefined ? { apiKey: v['api-key'] } : {}),
    ...(v.model !== undefined ? { model: v.model } : {}),
    ...(v.session !== undefined ? { session: v.session } : {}),
    ...(v.from !== undefined ? { from: v.from } : {}),
    tree: v.tree === true,
    ...(v.at !== undefined ? { at: v.at } : {}),
    ...(approve !== undefined ? { approve: approve as ApproveMode } : {}),
    json: v.json === true,
    raw: v.raw === true,
    ...(v['data-dir'] !== undefined ? { dataDir: v['data-dir'] } : {}),
    ...(v['mcp-config'] !== undefined ? { mcpConfig: v['mcp-config'] } : {}),
    ...(v['mcp-prompt'] !== undefined ? { mcpPrompt: v['mcp-prompt'] } : {}),
    attach: v.attach ?? [],
    voice: v.voice === true,
    ...(v.workspace !== undefined ? { workspace: v.workspace } : {}),
    ...(v.assistant !== undefined ? { assistant: v.assistant } : {}),
    ...(v.project !== undefined ? { project: v.project } : {}),
    ...(v.instructions !== undefined ? { instructions: v.instructions } : {}),
    assistantFields: assistantFieldsOf(v),
    usage: {
      ...(v.since !== undefined ? { since: v.since } : {}),
      ...(v.until !== undefined ? { until: v.until } : {}),
      ...(v.by !== undefined ? { by: v.by } : {}),
    },
    allowPolicy: v['allow-policy'] === true,
    ...(format !== undefined ? { format } : {}),
    ...(v.out !== undefined ? { out: v.out } : {}),
    ...(v.url !== undefined ? { url: v.url } : {}),
    headers: v.header ?? [],
    env: v.env ?? [],
    ...(v.file !== undefined ? { file: v.file } : {}),
    ...(v.use !== undefined ? { use: v.use } : {}),
    set: v.set ?? [],
    help: v.help === true,
    version: v.version === true,
  }
  const maxIterations = positiveInt('--max-iterations', v['max-iterations'])
  if (maxIterations !== undefined) options.maxIterations = maxIterations
  const deadlineMs = positiveInt('--deadline-ms', v['deadline-ms'])
  if (deadlineMs !== undefined) options.deadlineMs = deadlineMs
  const contextWindow = positiveInt('--context-window', v['context-window'])
  if (contextWindow !== undefined) options.contextWindow = contextWindow
  if (v.think !== undefined) {
    if (v.think !== 'on' && v.think !== 'off')
      throw new UsageError(`--think must be on or off, not "${v.think}"`)
    options.think = v.think === 'on'
  }
  return options
}

/** `assistants create|edit`: what the flags set the assistant to */
function assistantFieldsOf(v: Flags): CliOptions['assistantFields'] {
  return {
    ...(v.name !== undefined ? { name: v.name } : {}),
    ...(v.description !== undefined ? { description: v.description } : {}),
    ...(v.prompt !== undefined ? { prompt: v.prompt } : {}),
    ...(v.provider !== undefined ? { provider: v.provider } : {}),
    ...(v['utility-model'] !== undefined ? { utilityModel: v['utility-model'] } : {}),
    ...(v.temperature !== undefined ? { temperature: v.temperature } : {}),
    ...(v.tools !== undefined ? { tools: v.tools } : {}),
    ...(v.policy !== undefined ? { policy: v.policy } : {}),
    unset: v.unset ?? [],
  }
}
