/**
 * `cairn projects list|create|show|edit|delete`, and the project a turn's
 * `--project <name>` stands for. A project is named by its name (without case) or its id.
 * Deleting a project moves its chats to "No project"; none is deleted.
 */
import { resolve } from 'node:path'
import type { ProjectPatch, ProjectSummary } from '../../src-preload/contract/projects'
import type { AppServices } from '../services/host/app-services'
import { UsageError, type CliOptions } from './args'
import type { Streams } from './output'
import { jsonLine } from './terminal-text'

/** The project `given` names (its name without case, or its id); a usage error if none. */
export function resolveProject(app: AppServices, given: string): ProjectSummary {
  const found = app.projects.find(given.trim())
  if (!found)
    throw new UsageError(
      `there is no project "${given}"; \`cairn projects list\` shows the projects`,
    )
  return found
}

/**
 * `--project` on a turn: the project's id for a new chat. With `--session`, the chat's own
 * project is used; naming another is a mistake the user is told about.
 */
export function projectForTurn(app: AppServices, given: string, sessionId?: string): string {
  const project = resolveProject(app, given)
  if (sessionId) {
    const session = app.store.getSession(sessionId)
    if (session && (session.projectId ?? null) !== project.id) {
      const own = session.projectId ? app.projects.forSession(session)?.name : null
      throw new UsageError(
        own
          ? `the session is in the project "${own}", not "${project.name}"; leave out --project (a continued chat stays in its project)`
          : `the session is in no project; leave out --project, or move the chat into "${project.name}" in the window`,
      )
    }
  }
  return project.id
}

function needName(name: string | undefined, command: string): string {
  if (!name?.trim()) throw new UsageError(`cairn projects ${command} needs a project's name`)
  return name
}

function line(p: ProjectSummary): string {
  const chats = `${p.chatCount} chat${p.chatCount === 1 ? '' : 's'}`
  return `${p.name}  ${chats}${p.workspace ? `  folder: ${p.workspace}` : ''}`
}

function details(app: AppServices, p: ProjectSummary): string[] {
  const assistant = p.assistantId
    ? (app.assistants.get(p.assistantId)?.name ?? `${p.assistantId} (deleted: the default one)`)
    : '(the default one)'
  const rows: [string, string][] = [
    ['Name', p.name],
    ['Id', p.id],
    ['Chats', String(p.chatCount)],
    ['Assistant', assistant],
    ['Model', p.model ?? '(the assistant’s)'],
    ['Workspace', p.workspace ?? '(the assistant’s or the settings’)'],
    ['Instructions', p.instructions || '(none)'],
  ]
  return rows.map(([k, v]) => `${`${k}:`.padEnd(14)}${v}`)
}

const UNSETTABLE = { assistant: 'assistantId', model: 'model', workspace: 'workspace' } as const

/** what the flags set: --name, --instructions, --assistant, --model, --workspace, --unset */
function patchOf(options: CliOptions): ProjectPatch {
  const patch: ProjectPatch = {}
  const f = options.assistantFields
  if (f.name !== undefined) patch.name = f.name
  if (options.instructions !== undefined) patch.instructions = options.instructions
  // --assistant was resolved to an id by the command line
  if (options.assistant !== undefined) patch.assistantId = options.assistant
  if (options.model !== undefined) patch.model = options.model
  if (options.workspace !== undefined) patch.workspace = resolve(options.workspace)
  for (const field of f.unset) {
    if (!Object.hasOwn(UNSETTABLE, field))
      throw new UsageError(`--unset takes assistant, model or workspace, not "${field}"`)
    patch[UNSETTABLE[field as keyof typeof UNSETTABLE]] = null
  }
  return patch
}

interface ProjectsRun {
  app: AppServices
  options: CliOptions
  rest: string[]
  out(line: string): void
}

const COMMANDS: Record<string, [args: number, run: (c: ProjectsRun) => void]> = {
  list: [
    0,
    ({ app, options, out }) => {
      const all = app.projects.list()
      if (options.json) out(jsonLine({ projects: all }))
      else if (all.length === 0) out('No projects yet. `cairn projects create <name>` makes one.')
      else for (const p of all) out(line(p))
    },
  ],
  show: [
    1,
    ({ app, options, rest, out }) => {
      const p = resolveProject(app, needName(rest[0], 'show'))
      if (options.json) out(jsonLine(p))
      else for (const row of details(app, p)) out(row)
    },
  ],
  create: [
    1,
    ({ app, options, rest, out }) => {
      const name = needName(rest[0], 'create')
      const { name: _n, ...patch } = patchOf(options)
      const draft = {
        name,
        instructions: patch.instructions ?? '',
        ...(patch.assistantId ? { assistantId: patch.assistantId } : {}),
        ...(patch.model ? { model: patch.model } : {}),
        ...(patch.workspace ? { workspace: patch.workspace } : {}),
      }
      const p = app.projects.create(draft)
      out(
        `Created the project "${p.name}". Start a chat in it with: cairn --project "${p.name}" "…"`,
      )
    },
  ],
  edit: [
    1,
    ({ app, options, rest, out }) => {
      const current = resolveProject(app, needName(rest[0], 'edit'))
      const p = app.projects.edit(current.id, patchOf(options))
      out(`Saved the project "${p.name}".`)
    },
  ],
  delete: [
    1,
    ({ app, rest, out }) => {
      const { project, movedChats } = app.projects.delete(
        resolveProject(app, needName(rest[0], 'delete')).id,
      )
      out(
        `Deleted the project "${project.name}"; its ${movedChats} chat${movedChats === 1 ? '' : 's'} moved to "No project".`,
      )
    },
  ],
}

/** Runs the command; returns the exit code. The service's refusals are said by the caller. */
export function projectsCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): number {
  const [sub, ...rest] = args
  const command = sub !== undefined && Object.hasOwn(COMMANDS, sub) ? COMMANDS[sub] : undefined
  if (!command)
    throw new UsageError(
      sub
        ? `unknown projects command "${sub}"`
        : 'cairn projects needs a command: list, show, create, edit or delete',
    )
  const [takes, runIt] = command
  if (rest.length > takes)
    throw new UsageError(
      `cairn projects ${sub} takes ${takes} argument(s); quote a name with spaces`,
    )
  runIt({ app, options, rest, out: (s) => void streams.stdout.write(`${s}\n`) })
  return 0
}
