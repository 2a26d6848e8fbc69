/**
 * `cairn assistants list|show|tools|create|edit|duplicate|delete|export|import`, and the
 * assistant a turn's `--assistant <name>` stands for. An assistant is named by its name
 * (without case) or its id.
 */
import { readFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { DEFAULT_ASSISTANT_ID, type Assistant } from '../../src-preload/contract/assistants'
import { writeFileAtomicSync } from '../adapters/atomic-file'
import { exportAssistant, importAssistant } from '../services/assistants/assistant-files'
import type { AppServices } from '../services/host/app-services'
import { UsageError, type CliOptions } from './args'
import { ALL_TOOLS, draftFromOptions, toolsSpec } from './assistant-flags'
import type { Streams } from './output'
import { jsonLine } from './terminal-text'

/** The assistant `given` names (its name without case, or its id), if there is one. */
export function findAssistant(app: AppServices, given: string): Assistant | null {
  return app.assistants.findByName(given) ?? app.assistants.get(given.trim())
}

/** The assistant `given` names (its name without case, or its id); a usage error if none. */
export function resolveAssistant(app: AppServices, given: string): Assistant {
  const found = findAssistant(app, given)
  if (!found)
    throw new UsageError(
      `there is no assistant "${given}"; \`cairn assistants list\` shows the assistants`,
    )
  return found
}

function needName(name: string | undefined, command: string): string {
  if (!name?.trim()) throw new UsageError(`cairn assistants ${command} needs an assistant's name`)
  return name
}

function line(a: Assistant): string {
  const mark = a.id === DEFAULT_ASSISTANT_ID ? ' (default)' : ''
  return `${a.name}${mark}  tools: ${toolsSpec(a.tools)}${a.model ? `  model: ${a.model}` : ''}${a.description ? `  — ${a.description}` : ''}`
}

function details(a: Assistant): string[] {
  const unset = '(the settings’)'
  const rows: [string, string][] = [
    ['Name', a.name + (a.id === DEFAULT_ASSISTANT_ID ? ' (default: new chats start with it)' : '')],
    ['Id', a.id],
    ['Origin', a.origin],
    ['Description', a.description ?? ''],
    ['Prompt', a.systemPrompt === undefined ? unset : a.systemPrompt || '(none)'],
    ['Provider', a.providerId ?? unset],
    ['Model', a.model ?? unset],
    ['Utility model', a.utilityModel ?? unset],
    ['Temperature', a.temperature === undefined ? '(the server’s)' : String(a.temperature)],
    ['Tools', toolsSpec(a.tools)],
    ['Policy', a.permissionPolicy ?? unset],
    [
      'Max iterations',
      a.limits.maxIterations === undefined ? unset : String(a.limits.maxIterations),
    ],
    ['Deadline', a.limits.deadlineMs === undefined ? unset : `${a.limits.deadlineMs} ms`],
    ['Workspace', a.workspace ?? unset],
  ]
  return rows.map(([k, v]) => `${`${k}:`.padEnd(16)}${v}`)
}

/** a file, or stdin for `-` */
function readInput(file: string): string {
  try {
    return readFileSync(file === '-' ? 0 : resolve(file), 'utf8')
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`)
  }
}

/** Runs the command; returns the exit code. The store's refusals are said on stderr (1). */
export async function assistantsCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  // a refusal (a name taken, a file that is not an assistant) is said by the caller
  if (args[0] === 'tools') {
    if (args.length > 2)
      throw new UsageError('cairn assistants tools takes 1 argument(s); quote a name with spaces')
    const assistant = resolveAssistant(app, needName(args[1], 'tools'))
    const { assistantTools } = await import('./assistant-tools')
    return await assistantTools(app, assistant, options, streams)
  }
  return run(app, args, options, streams)
}

/** One `cairn assistants` command: the data, its flags, its arguments, where it prints. */
interface AssistantsRun {
  app: AppServices
  options: CliOptions
  streams: Streams
  /** the arguments after the command's name */
  rest: string[]
  out(line: string): void
}

/** each command: how many arguments it takes, and what it does */
const COMMANDS: Record<string, [args: number, run: (c: AssistantsRun) => void]> = {
  list: [
    0,
    ({ app, options, out }) => {
      const all = app.assistants.list()
      if (options.json) out(jsonLine({ assistants: all, defaultId: DEFAULT_ASSISTANT_ID }))
      else for (const a of all) out(line(a))
    },
  ],
  show: [
    1,
    ({ app, options, rest, out }) => {
      const a = resolveAssistant(app, needName(rest[0], 'show'))
      if (options.json) out(jsonLine(a))
      else for (const row of details(a)) out(row)
    },
  ],
  create: [
    1,
    ({ app, options, rest, out }) => {
      const name = options.assistantFields.name ?? needName(rest[0], 'create')
      const draft = draftFromOptions({ name, tools: ALL_TOOLS, limits: {} }, options)
      const a = app.assistants.create(draft)
      out(`Created the assistant "${a.name}" (tools: ${toolsSpec(a.tools)}).`)
    },
  ],
  edit: [
    1,
    ({ app, options, rest, out }) => {
      const current = resolveAssistant(app, needName(rest[0], 'edit'))
      const { id, origin: _o, createdAt: _c, updatedAt: _u, ...base } = current
      const a = app.assistants.update(id, draftFromOptions(base, options))
      out(`Saved the assistant "${a.name}" (tools: ${toolsSpec(a.tools)}).`)
    },
  ],
  duplicate: [
    1,
    ({ app, options, rest, out }) => {
      const from = resolveAssistant(app, needName(rest[0], 'duplicate'))
      const a = app.assistants.duplicate(from.id, options.assistantFields.name)
      out(`Created the assistant "${a.name}", a copy of "${from.name}".`)
    },
  ],
  delete: [
    1,
    ({ app, rest, out }) => {
      const a = resolveAssistant(app, needName(rest[0], 'delete'))
      app.assistants.delete(a.id)
      out(`Deleted the assistant "${a.name}" (sessions that used it keep a copy).`)
    },
  ],
  export: [
    2,
    ({ app, streams, rest, out }) => {
      const file = exportAssistant(resolveAssistant(app, needName(rest[0], 'export')))
      const target = rest[1]
      if (target === undefined || target === '-') streams.stdout.write(file.content)
      else {
        writeFileAtomicSync(resolve(target), file.content)
        out(`Wrote ${resolve(target)}.`)
      }
    },
  ],
  import: [
    1,
    ({ app, rest, out, options }) => {
      const file = rest[0]
      if (!file) throw new UsageError('cairn assistants import needs a file (- reads stdin)')
      const { assistant, renamedFrom, policyNotApplied } = importAssistant(
        app,
        readInput(file),
        options.allowPolicy ? { allowPolicy: true } : {},
      )
      out(
        renamedFrom
          ? `Imported the assistant as "${assistant.name}" ("${renamedFrom}" is taken).`
          : `Imported the assistant "${assistant.name}".`,
      )
      if (policyNotApplied)
        out(
          `Its permission policy "${policyNotApplied}" asks less than yours ("${app.settings.get().permissionPolicy}") and was not applied: it follows yours. To use it, import again with --allow-policy, or run \`cairn assistants edit "${assistant.name}" --policy ${policyNotApplied}\`.`,
        )
    },
  ],
}

function run(app: AppServices, args: string[], options: CliOptions, streams: Streams): number {
  const [sub, ...rest] = args
  const command = sub !== undefined && Object.hasOwn(COMMANDS, sub) ? COMMANDS[sub] : undefined
  if (!command)
    throw new UsageError(
      sub
        ? `unknown assistants command "${sub}"`
        : 'cairn assistants needs a command: list, show, tools, create, edit, duplicate, delete, export or import',
    )
  const [takes, runIt] = command
  if (rest.length > takes)
    throw new UsageError(
      `cairn assistants ${sub} takes ${takes} argument(s); quote a name with spaces`,
    )
  runIt({ app, options, streams, rest, out: (s) => void streams.stdout.write(`${s}\n`) })
  return 0
}
