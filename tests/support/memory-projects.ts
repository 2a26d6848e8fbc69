/**
 * Projects on the in-memory ports, with the rules of `adapters/sqlite/project-store.ts`:
 * names unique without case, deleting a project moves its chats to "No project".
 */
import { randomUUID } from 'node:crypto'
import type {
  Project,
  ProjectDeleted,
  ProjectDraft,
  ProjectPatch,
  ProjectSummary,
} from '../../src-preload/contract/projects'
import type { ProjectRepository, SessionRepository } from '../../src-main/core/service-ports'
import { ExpectedError } from '../../src-main/core/errors'
import { projectNameTaken } from '../../src-main/adapters/sqlite/project-store'

const nameKey = (name: string): string => name.trim().toLocaleLowerCase()

export class MemoryProjectRepository implements ProjectRepository {
  private readonly rows = new Map<string, Project>()

  constructor(
    private readonly sessions: Pick<
      SessionRepository,
      'listSessions' | 'updateSession' | 'getSession'
    >,
    private readonly now: () => number = Date.now,
  ) {}

  list(): ProjectSummary[] {
    return [...this.rows.values()]
      .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))
      .map((p) => this.summary(p))
  }

  get(id: string): ProjectSummary | null {
    const p = this.rows.get(id)
    return p ? this.summary(p) : null
  }

  findByName(name: string): ProjectSummary | null {
    const p = [...this.rows.values()].find((r) => nameKey(r.name) === nameKey(name))
    return p ? this.summary(p) : null
  }

  create(draft: ProjectDraft): ProjectSummary {
    this.checkName(draft.name, null)
    const now = this.now()
    const project: Project = {
      ...structuredClone(draft),
      name: draft.name.trim(),
      id: randomUUID(),
      createdAt: now,
      updatedAt: now,
    }
    this.rows.set(project.id, project)
    return this.summary(project)
  }

  update(id: string, patch: ProjectPatch): ProjectSummary {
    const current = this.rows.get(id)
    if (!current) throw new ExpectedError('not_found', `There is no project "${id}".`)
    if (patch.name !== undefined) this.checkName(patch.name, id)
    const next: Project = { ...current, updatedAt: this.now() }
    if (patch.name !== undefined) next.name = patch.name.trim()
    if (patch.instructions !== undefined) next.instructions = patch.instructions
    for (const key of ['assistantId', 'model', 'workspace'] as const) {
      const value = patch[key]
      if (value === null) delete next[key]
      else if (value !== undefined) next[key] = value
    }
    this.rows.set(id, next)
    return this.summary(next)
  }

  delete(id: string): ProjectDeleted {
    if (!this.rows.delete(id)) return { deleted: false, movedChats: 0 }
    const chats = this.chatsOf(id)
    for (const s of chats) this.sessions.updateSession(s.id, { projectId: null })
    return { deleted: true, movedChats: chats.length }
  }

  setForSession(sessionId: string, projectId: string | null): boolean {
    if (projectId !== null && !this.rows.has(projectId))
      throw new ExpectedError('not_found', `There is no project "${projectId}".`)
    if (!this.sessions.getSession(sessionId)) return false
    this.sessions.updateSession(sessionId, { projectId })
    return true
  }

  private chatsOf(id: string) {
    return this.sessions
      .listSessions({ limit: 1_000_000, includeArchived: true })
      .sessions.filter((s) => s.projectId === id)
  }

  private summary(p: Project): ProjectSummary {
    return { ...structuredClone(p), chatCount: this.chatsOf(p.id).length }
  }

  private checkName(name: string, exceptId: string | null): void {
    const other = this.findByName(name)
    if (other && other.id !== exceptId) throw projectNameTaken(other.name)
  }
}
