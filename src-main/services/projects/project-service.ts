/**
 * Projects as every host uses them (the routes, the CLI, a turn): input checked with the
 * contract's schemas, a project named by its id or its name, the assistant it names checked,
 * its workspace an absolute path. Deleting a project moves its chats to "No project": no chat
 * is ever deleted with it.
 */
import { isAbsolute } from 'node:path'
import type { z } from 'zod'
import type { SessionRecord } from '../../../src-preload/contract/dto'
import {
  projectDraftSchema,
  projectPatchSchema,
  type ProjectDeleted,
  type ProjectSummary,
} from '../../../src-preload/contract/projects'
import { ExpectedError } from '../../core/errors'
import type {
  AssistantRepository,
  ProjectRepository,
  SessionRepository,
} from '../../core/service-ports'

/** `bad_request` naming each field the input got wrong */
function invalid(what: string, error: z.ZodError): ExpectedError<'bad_request'> {
  const fields: Record<string, string> = {}
  for (const issue of error.issues) {
    const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(input)'
    fields[path] ??= issue.message
  }
  const problems = Object.entries(fields)
    .map(([path, message]) => `${path}: ${message}`)
    .join('; ')
  return new ExpectedError('bad_request', `${what}: ${problems}`, { details: { fields } })
}

function badField(field: string, message: string): ExpectedError<'bad_request'> {
  return new ExpectedError('bad_request', message, { details: { fields: { [field]: message } } })
}

export class ProjectService {
  constructor(
    private readonly repo: ProjectRepository,
    private readonly assistants: Pick<AssistantRepository, 'get'>,
    private readonly sessions: Pick<SessionRepository, 'getSession'>,
  ) {}

  /** every project, by name, with how many chats each holds */
  list(): ProjectSummary[] {
    return this.repo.list()
  }

  /** the project with this id, else this name; `not_found` when there is none */
  require(ref: string): ProjectSummary {
    const found = this.find(ref)
    if (!found)
      throw new ExpectedError(
        'not_found',
        `There is no project "${ref}". \`cairn projects list\` (or the sidebar) shows the projects there are.`,
      )
    return found
  }

  /** the project with this id, else this name, or null */
  find(ref: string): ProjectSummary | null {
    return this.repo.get(ref) ?? this.repo.findByName(ref)
  }

  create(input: unknown): ProjectSummary {
    const parsed = projectDraftSchema.safeParse(input)
    if (!parsed.success) throw invalid('The project is not valid', parsed.error)
    this.checkReferences(parsed.data)
    return this.repo.create(parsed.data)
  }

  /** sets the fields `input` gives (`null` clears an optional one) */
  edit(ref: string, input: unknown): ProjectSummary {
    const parsed = projectPatchSchema.safeParse(input)
    if (!parsed.success) throw invalid('The change to the project is not valid', parsed.error)
    const project = this.require(ref)
    this.checkReferences(parsed.data)
    return this.repo.update(project.id, parsed.data)
  }

  /** deletes the project; its chats move to "No project" (none is deleted) */
  delete(ref: string): ProjectDeleted & { project: ProjectSummary } {
    const project = this.require(ref)
    return { ...this.repo.delete(project.id), project }
  }

  /** moves a chat into a project (null: "No project"); the chat as it is now */
  moveSession(sessionId: string, projectRef: string | null): SessionRecord {
    const projectId = projectRef === null ? null : this.require(projectRef).id
    if (!this.repo.setForSession(sessionId, projectId))
      throw new ExpectedError('not_found', `There is no session "${sessionId}".`)
    return this.sessions.getSession(sessionId)!
  }

  /** the project a chat is in, or null (none, or it cannot be read) */
  forSession(session: Pick<SessionRecord, 'projectId'>): ProjectSummary | null {
    return session.projectId ? this.repo.get(session.projectId) : null
  }

  private checkReferences(p: { assistantId?: string | null; workspace?: string | null }): void {
    if (p.assistantId && !this.assistants.get(p.assistantId))
      throw badField(
        'assistantId',
        `There is no assistant "${p.assistantId}"; choose one of the assistants there are.`,
      )
    if (p.workspace && !isAbsolute(p.workspace))
      throw badField(
        'workspace',
        `The workspace folder must be an absolute path (got "${p.workspace}").`,
      )
  }
}
