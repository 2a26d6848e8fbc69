import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { DEFAULT_ASSISTANT_ID, type AssistantDraft } from '../../src-preload/contract/assistants'
import { SqliteAssistantStore } from '../../src-main/adapters/sqlite/assistant-store'
import { SCHEMA_VERSION, userVersion } from '../../src-main/adapters/sqlite/migrations'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { databaseAtVersion } from '../support/session-store'

let dir: string
let store: SqliteSessionStore | null = null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-assistants-'))
})
afterEach(() => {
  store?.close()
  store = null
  rmSync(dir, { recursive: true, force: true })
})

const draft = (name: string, over: Partial<AssistantDraft> = {}): AssistantDraft => ({
  name,
  tools: { builtin: { mode: 'some', names: ['read_file'] }, mcp: { servers: {}, others: 'none' } },
  limits: {},
  ...over,
})

/** a database as version 8 of the schema left it, with one session */
function version8Database(): void {
  const db = databaseAtVersion(dir, 8)
  db.prepare(
    `INSERT INTO sessions (id, title, created_at, updated_at, model) VALUES ('s-old', 'Old talk', 1, 2, 'm')`,
  ).run()
  db.close()
}

function open(): { sessions: SqliteSessionStore; assistants: SqliteAssistantStore } {
  store = createSessionStore(dir)
  return { sessions: store, assistants: new SqliteAssistantStore(store) }
}

describe('migration 9', () => {
  it('backs the v8 database up, seeds the assistants and gives old sessions the default one', () => {
    version8Database()
    const { sessions, assistants } = open()
    expect(userVersion(sessions.db)).toBe(SCHEMA_VERSION)
    expect(readdirSync(dir).filter((f) => f.startsWith('cairn.db.bak-v8-'))).toHaveLength(1)
    expect(assistants.list().map((a) => [a.name, a.origin])).toEqual([
      ['Default', 'default'],
      ['Chat', 'builtin'],
      ['Files', 'builtin'],
      ['Researcher', 'builtin'],
    ])
    expect(sessions.getSession('s-old')?.assistant).toEqual({
      id: DEFAULT_ASSISTANT_ID,
      name: 'Default',
    })
    expect(assistants.forSession('s-old')).toMatchObject({
      live: true,
      assistant: { id: DEFAULT_ASSISTANT_ID },
    })
  })

  it('seeds the built-in assistants with the tools the issue names', () => {
    const { assistants } = open()
    const byName = (n: string) => assistants.findByName(n)!
    expect(byName('chat').tools).toEqual({
      builtin: { mode: 'none', names: [] },
      mcp: { servers: {}, others: 'none' },
    })
    expect(byName('Files')).toMatchObject({
      permissionPolicy: 'read-only',
      tools: {
        builtin: {
          mode: 'some',
          names: ['read_file', 'list_directory', 'search_files', 'write_file', 'edit_file'],
        },
        mcp: { others: 'none' },
      },
    })
    expect(byName('Researcher').tools.builtin.names).toContain('fetch_url')
    expect(byName('Researcher').tools.builtin.names).not.toContain('run_command')
    expect(byName('Default')).toMatchObject({
      tools: { builtin: { mode: 'all' }, mcp: { others: 'all' } },
    })
    expect(byName('Default').systemPrompt).toBeUndefined()
    expect(byName('Default').permissionPolicy).toBeUndefined()
  })
})

describe('the assistant store', () => {
  it('creates, updates, duplicates and deletes; names are unique without case', () => {
    const { assistants } = open()
    const a = assistants.create(draft('Reader', { temperature: 0.3 }))
    expect(a).toMatchObject({ name: 'Reader', origin: 'user', temperature: 0.3 })
    expect(() => assistants.create(draft('  reader '))).toThrow(/exists already/)
    const b = assistants.update(a.id, draft('Reader', { systemPrompt: 'Be brief.' }))
    expect(b).toMatchObject({ id: a.id, systemPrompt: 'Be brief.', createdAt: a.createdAt })
    expect(b.temperature).toBeUndefined()
    const copy = assistants.duplicate(a.id)
    expect(copy).toMatchObject({ name: 'Reader (copy)', systemPrompt: 'Be brief.', origin: 'user' })
    expect(assistants.duplicate(a.id).name).toBe('Reader (copy) (2)')
    expect(assistants.delete(a.id)).toBe(true)
    expect(assistants.get(a.id)).toBeNull()
    expect(assistants.delete(a.id)).toBe(false)
    expect(() => assistants.update('nope', draft('X'))).toThrow(/no assistant/)
  })

  it('refuses to delete the default assistant; the built-in ones are ordinary rows', () => {
    const { assistants } = open()
    expect(() => assistants.delete(DEFAULT_ASSISTANT_ID)).toThrow(/cannot be deleted/)
    const chat = assistants.findByName('Chat')!
    const edited = assistants.update(chat.id, { ...draft('Chat'), systemPrompt: 'Chat freely.' })
    expect(edited.systemPrompt).toBe('Chat freely.')
    expect(assistants.delete(chat.id)).toBe(true)
  })

  it('a session keeps a copy of its assistant and goes on with it once it is deleted', () => {
    const { sessions, assistants } = open()
    const a = assistants.create(draft('Short-lived', { systemPrompt: 'Only read.' }))
    const s = sessions.createSession({})
    assistants.setForSession(s.id, a)
    expect(sessions.getSession(s.id)?.assistant).toEqual({ id: a.id, name: 'Short-lived' })
    assistants.delete(a.id)
    expect(assistants.forSession(s.id)).toEqual({ assistant: a, live: false })
    expect(sessions.getSession(s.id)?.assistant).toEqual({
      id: a.id,
      name: 'Short-lived',
      deleted: true,
    })
  })

  it('a session whose assistant is gone and whose copy cannot be read runs with the default one', () => {
    const { sessions, assistants } = open()
    const s = sessions.createSession({})
    sessions.db
      .prepare(
        `UPDATE sessions SET assistant_id = 'gone', assistant_snapshot = '{bad' WHERE id = ?`,
      )
      .run(s.id)
    expect(assistants.forSession(s.id)).toMatchObject({ live: true, assistant: { id: 'default' } })
    expect(sessions.getSession(s.id)?.assistant).toEqual({
      id: 'gone',
      name: 'Unknown assistant',
      deleted: true,
    })
    expect(sessions.listSessions({ limit: 10 }).total).toBe(1)
  })

  it('leaves out a row it cannot read instead of failing the list', () => {
    const { sessions, assistants } = open()
    sessions.db
      .prepare(
        `INSERT INTO assistants (id, name, origin, data, created_at, updated_at) VALUES ('bad', 'Bad', 'user', '{"tools": 3}', 1, 1)`,
      )
      .run()
    expect(assistants.list().map((a) => a.name)).not.toContain('Bad')
    expect(assistants.get('bad')).toBeNull()
  })
})
