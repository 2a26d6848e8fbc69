/**
 * Assistants in `cairn.db` (table `assistants`, migration v9), and which one each session
 * runs with (`sessions.assistant_id`, with a copy of it in `sessions.assistant_snapshot`).
 * Rows are read as untrusted: one whose data does not fit the contract's schema is left
 * out of the list (and a session that ran with it falls back to its copy). Queries run
 * through the session store's `checked`, so damage they meet is told (and kept) as its own.
 */
import { randomUUID } from 'node:crypto'
import type { Database } from 'better-sqlite3'
import {
  assistantDraftSchema,
  assistantSchema,
  DEFAULT_ASSISTANT_ID,
  type Assistant,
  type AssistantDraft,
  type AssistantOrigin,
} from '../../../src-preload/contract/assistants'
import type { AssistantRepository, SessionAssistantChoice } from '../../core/service-ports'
import type { SqliteSessionStore } from './session-store'
import { ExpectedError } from '../../core/errors'

/** a name another assistant has: a conflict about the assistant's `name` */
export function nameTaken(name: string): ExpectedError<'conflict'> {
  const message = `An assistant named "${name}" exists already; choose another name.`
  return new ExpectedError('conflict', message, { details: { fields: { name: message } } })
}

interface AssistantRow {
  id: string
  name: string
  origin: string
  data: string
  created_at: number
  updated_at: number
}

const COLUMNS = 'id, name, origin, data, created_at, updated_at'

/** how names are compared: without case and surrounding spaces */
const nameKey = (name: string): string => name.trim().toLocaleLowerCase()

function readRow(row: AssistantRow): Assistant | null {
  let data: unknown
  try {
    data = JSON.parse(row.data)
  } catch {
    return null
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null
  const parsed = assistantSchema.safeParse({
    ...data,
    name: row.name,
    id: row.id,
    origin: row.origin,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  })
  return parsed.success ? parsed.data : null
}

function readSnapshot(text: string | null): Assistant | null {
  if (text === null) return null
  try {
    const parsed = assistantSchema.safeParse(JSON.parse(text))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** what is kept in `data`: everything the user sets but the name (checked, unknown keys dropped) */
function dataOf(draft: AssistantDraft): string {
  const { name: _name, ...data } = assistantDraftSchema.parse(draft)
  return JSON.stringify(data)
}

export class SqliteAssistantStore implements AssistantRepository {
  private readonly db: Database
  private readonly checked: SqliteSessionStore['checked']

  constructor(
    store: Pick<SqliteSessionStore, 'db' | 'checked'>,
    private readonly now: () => number = Date.now,
  ) {
    this.db = store.db
    this.checked = (fn) => store.checked(fn)
  }

  /** every readable assistant: the default first, then by name */
  list(): Assistant[] {
    const rows = this.checked(() =>
      this.db.prepare<[], AssistantRow>(`SELECT ${COLUMNS} FROM assistants`).all(),
    )
    return rows
      .map(readRow)
      .filter((a): a is Assistant => a !== null)
      .sort(
        (a, b) =>
          Number(b.id === DEFAULT_ASSISTANT_ID) - Number(a.id === DEFAULT_ASSISTANT_ID) ||
          a.name.localeCompare(b.name, undefined, { sensitivity: 'base' }),
      )
  }

  get(id: string): Assistant | null {
    const row = this.checked(() =>
      this.db
        .prepare<[string], AssistantRow>(`SELECT ${COLUMNS} FROM assistants WHERE id = ?`)
        .get(id),
    )
    return row ? readRow(row) : null
  }

  require(id: string): Assistant {
    const found = this.get(id)
    if (!found) throw new ExpectedError('not_found', `There is no assistant "${id}".`)
    return found
  }

  /** the assistant of that name (without case and surrounding spaces), or null */
  findByName(name: string): Assistant | null {
    const key = nameKey(name)
    return this.list().find((a) => nameKey(a.name) === key) ?? null
  }

  /** the assistant new chats start with */
  defaultAssistant(): Assistant {
    return this.require(DEFAULT_ASSISTANT_ID)
  }

  /** `base`, else `base (2)`, `base (3)`, … whichever is not taken */
  freeName(base: string): string {
    const taken = new Set(
      this.checked(() =>
        this.db.prepare<[], { name: string }>('SELECT name FROM assistants').all(),
      ).map((r) => nameKey(r.name)),
    )
    if (!taken.has(nameKey(base))) return base.trim()
    // room for the number within the longest name (100)
    const trimmed = base.trim().slice(0, 90)
    for (let i = 2; ; i++) {
      const candidate = `${trimmed} (${i})`
      if (!taken.has(nameKey(candidate))) return candidate
    }
  }

  create(draft: AssistantDraft, origin: AssistantOrigin = 'user'): Assistant {
    const id = randomUUID()
    const data = dataOf(draft)
    return this.checked(() =>
      this.db
        .transaction(() => {
          this.checkName(draft.name, null)
          const now = this.now()
          this.db
            .prepare(
              `INSERT INTO assistants (id, name, origin, data, created_at, updated_at)
           VALUES (?, ?, ?, ?, ?, ?)`,
            )
            .run(id, draft.name.trim(), origin, data, now, now)
          return this.require(id)
        })
        .immediate(),
    )
  }

  /** replaces everything the user sets; the id, origin and creation date stay */
  update(id: string, draft: AssistantDraft): Assistant {
    const data = dataOf(draft)
    return this.checked(() =>
      this.db
        .transaction(() => {
          this.checkName(draft.name, id)
          const changed = this.db
            .prepare('UPDATE assistants SET name = ?, data = ?, updated_at = ? WHERE id = ?')
            .run(draft.name.trim(), data, this.now(), id).changes
          if (changed === 0) throw new ExpectedError('not_found', `There is no assistant "${id}".`)
          return this.require(id)
        })
        .immediate(),
    )
  }

  /** a copy, as a user assistant, named `name` or "<name> (copy)" (numbered when taken) */
  duplicate(id: string, name?: string): Assistant {
    const { id: _id, origin: _o, createdAt: _c, updatedAt: _u, ...draft } = this.require(id)
    return this.create({ ...draft, name: name ?? this.freeName(`${draft.name} (copy)`) })
  }

  /**
   * Deletes an assistant. The default one cannot be: new chats start with it (edit it
   * instead). Sessions that ran with a deleted assistant go on with their copy of it.
   */
  delete(id: string): boolean {
    if (id === DEFAULT_ASSISTANT_ID)
      throw new ExpectedError(
        'conflict',
        'The default assistant cannot be deleted: new chats start with it. Edit it instead.',
      )
    return this.checked(
      () => this.db.prepare('DELETE FROM assistants WHERE id = ?').run(id).changes > 0,
    )
  }

  /** The assistant a session runs with: the stored one when it exists, else its copy. */
  forSession(sessionId: string): SessionAssistantChoice {
    const row = this.checked(() =>
      this.db
        .prepare<[string], { assistant_id: string | null; assistant_snapshot: string | null }>(
          'SELECT assistant_id, assistant_snapshot FROM sessions WHERE id = ?',
        )
        .get(sessionId),
    )
    const live = this.get(row?.assistant_id ?? DEFAULT_ASSISTANT_ID)
    if (live) return { assistant: live, live: true }
    const copy = readSnapshot(row?.assistant_snapshot ?? null)
    if (copy) return { assistant: copy, live: false }
    return { assistant: this.defaultAssistant(), live: true }
  }

  /** Records the assistant a session runs with (from its next turn on) and keeps a copy. */
  setForSession(sessionId: string, assistant: Assistant): boolean {
    return this.checked(
      () =>
        this.db
          .prepare('UPDATE sessions SET assistant_id = ?, assistant_snapshot = ? WHERE id = ?')
          .run(assistant.id, JSON.stringify(assistant), sessionId).changes > 0,
    )
  }

  private checkName(name: string, exceptId: string | null): void {
    const other = this.findByName(name)
    if (other && other.id !== exceptId) throw nameTaken(other.name)
  }
}
