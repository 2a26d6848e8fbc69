/**
 * Projects in `cairn.db` (table `projects`, migration v13) and which project each session is
 * in (`sessions.project_id`). Rows are read as untrusted: one that does not fit the
 * contract's schema is left out of the list. Deleting a project moves its chats to "No
 * project" (the foreign key sets their `project_id` to null); no chat is deleted. Queries run
 * through the session store's `checked`, so damage they meet is told (and kept) as its own.
 */
import { randomUUID } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import {
  projectSchema,
  type ProjectDeleted,
  type ProjectDraft,
  type ProjectPatch,
  type ProjectSummary,
} from '../../../src-preload/contract/projects'
import type { ProjectRepository } from '../../core/service-ports'
import { ExpectedError } from '../../core/errors'
import type { SqliteSessionStore } from './session-store'

interface ProjectRow {
  id: string
  name: string
  instructions: string
  assistant_id: string | null
  model: string | null
  workspace: string | null
  created_at: number
  updated_at: number
  chat_count: number
}

const COLUMNS = `p.id, p.name, p.instructions, p.assistant_id, p.model, p.workspace, p.created_at,
  p.updated_at, (SELECT count(*) FROM sessions s WHERE s.project_id = p.id) AS chat_count`

/** a name another project has: a conflict about the project's `name` */
export function projectNameTaken(name: string): ExpectedError<'conflict'> {
  const message = `A project named "${name}" exists already; choose another name.`
  return new ExpectedError('conflict', message, { details: { fields: { name: message } } })
}

function projectNotFound(id: string): ExpectedError<'not_found'> {
  return new ExpectedError('not_found', `There is no project "${id}".`)
}

function readRow(row: ProjectRow): ProjectSummary | null {
  const parsed = projectSchema.safeParse({
    id: row.id,
    name: row.name,
    instructions: row.instructions,
    ...(row.assistant_id !== null ? { assistantId: row.assistant_id } : {}),
    ...(row.model !== null ? { model: row.model } : {}),
    ...(row.workspace !== null ? { workspace: row.workspace } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  })
  return parsed.success ? { ...parsed.data, chatCount: row.chat_count } : null
}

export class SqliteProjectStore implements ProjectRepository {
  private readonly db: Database
  private readonly checked: SqliteSessionStore['checked']

  constructor(
    store: Pick<SqliteSessionStore, 'db' | 'checked'>,
    private readonly now: () => number = Date.now,
  ) {
    this.db = store.db
    this.checked = (fn) => store.checked(fn)
  }

  /** every readable project, by name */
  list(): ProjectSummary[] {
    const rows = this.checked(() =>
      this.db.prepare<[], ProjectRow>(`SELECT ${COLUMNS} FROM projects p`).all(),
    )
    return rows
      .map(readRow)
      .filter((p): p is ProjectSummary => p !== null)
      .sort((a, b) => a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }))
  }

  get(id: string): ProjectSummary | null {
    const row = this.checked(() =>
      this.db
        .prepare<[string], ProjectRow>(`SELECT ${COLUMNS} FROM projects p WHERE p.id = ?`)
        .get(id),
    )
    return row ? readRow(row) : null
  }

  /** the project of that name (without case and surrounding spaces), or null */
  findByName(name: string): ProjectSummary | null {
    const row = this.checked(() =>
      this.db
        .prepare<[string], ProjectRow>(
          `SELECT ${COLUMNS} FROM projects p WHERE p.name = ? COLLATE NOCASE`,
        )
        .get(name.trim()),
    )
    return row ? readRow(row) : null
  }

  create(draft: ProjectDraft): ProjectSummary {
    const id = randomUUID()
    return this.checked(() =>
      this.db
        .transaction(() => {
          this.checkName(draft.name, null)
          const now = this.now()
          this.db
            .prepare(
              `INSERT INTO projects (id, name, instructions, assistant_id, model, workspace,
                 created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
            )
            .run(
              id,
              draft.name.trim(),
              draft.instructions,
              draft.assistantId ?? null,
              draft.model ?? null,
              draft.workspace ?? null,
              now,
              now,
            )
          return this.require(id)
        })
        .immediate(),
    )
  }

  /** sets the fields the patch gives (`null` clears one); the id and creation date stay */
  update(id: string, patch: ProjectPatch): ProjectSummary {
    return this.checked(() =>
      this.db
        .transaction(() => {
          const current = this.require(id)
          if (patch.name !== undefined) this.checkName(patch.name, id)
          const pick = <K extends 'assistantId' | 'model' | 'workspace'>(key: K) =>
            patch[key] === undefined ? (current[key] ?? null) : patch[key]
          this.db
            .prepare(
              `UPDATE projects SET name = ?, instructions = ?, assistant_id = ?, model = ?,
                 workspace = ?, updated_at = ? WHERE id = ?`,
            )
            .run(
              (patch.name ?? current.name).trim(),
              patch.instructions ?? current.instructions,
              pick('assistantId'),
              pick('model'),
              pick('workspace'),
              this.now(),
              id,
            )
          return this.require(id)
        })
        .immediate(),
    )
  }

  /** Deletes the project; its chats move to "No project". */
  delete(id: string): ProjectDeleted {
    return this.checked(() =>
      this.db
        .transaction(() => {
          const moved = this.db
            .prepare<[string], { n: number }>(
              'SELECT count(*) AS n FROM sessions WHERE project_id = ?',
            )
            .get(id)!.n
          const deleted = this.db.prepare('DELETE FROM projects WHERE id = ?').run(id).changes > 0
          return { deleted, movedChats: deleted ? moved : 0 }
        })
        .immediate(),
    )
  }

  /** Moves a session into a project (null: "No project"); false when there is no such session. */
  setForSession(sessionId: string, projectId: string | null): boolean {
    return this.checked(() =>
      this.db
        .transaction(() => {
          if (projectId !== null && !this.get(projectId)) throw projectNotFound(projectId)
          return (
            this.db
              .prepare('UPDATE sessions SET project_id = ? WHERE id = ?')
              .run(projectId, sessionId).changes > 0
          )
        })
        .immediate(),
    )
  }

  private require(id: string): ProjectSummary {
    const found = this.get(id)
    if (!found) throw projectNotFound(id)
    return found
  }

  private checkName(name: string, exceptId: string | null): void {
    const other = this.findByName(name)
    if (other && other.id !== exceptId) throw projectNameTaken(other.name)
  }
}
