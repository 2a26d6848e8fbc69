import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SCHEMA_VERSION, userVersion } from '../../src-main/adapters/sqlite/migrations'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { databaseAtVersion } from '../support/session-store'

let dir: string
let store: SqliteSessionStore | null = null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-storage-v4-'))
})
afterEach(() => {
  store?.close()
  store = null
  rmSync(dir, { recursive: true, force: true })
})

/** a database as version 3 of the schema left it: one session, a user message, a tool result */
function version3Database(): void {
  const db = databaseAtVersion(dir, 3)
  db.prepare(
    `INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s-old', 'Old talk', 1, 2)`,
  ).run()
  const insert = db.prepare(
    `INSERT INTO messages (id, session_id, seq, kind, role, content, tool_call_id, status,
       is_error, created_at)
     VALUES (?, 's-old', ?, 'message', ?, ?, ?, 'complete', ?, 3)`,
  )
  insert.run('m1', 1, 'user', 'How tall is it?', null, 0)
  insert.run('m2', 2, 'tool', 'permission denied', 'c1', 1)
  db.close()
}

describe('migration 4', () => {
  it('keeps the messages of a v3 database readable, the new fields null', () => {
    version3Database()
    store = createSessionStore(dir)
    expect(userVersion(store.db)).toBe(SCHEMA_VERSION)
    expect(readdirSync(dir).filter((f) => f.startsWith('cairn.db.bak-v3-'))).toHaveLength(1)
    const messages = store.listMessages('s-old')
    expect(messages.map((m) => [m.id, m.content, m.isError])).toEqual([
      ['m1', 'How tall is it?', false],
      ['m2', 'permission denied', true],
    ])
    for (const m of messages) {
      expect(m).toMatchObject({
        supersedes: null,
        durationMs: null,
        reasoningMs: null,
        decidedBy: null,
      })
    }
    const json = JSON.parse(store.exportSession('s-old', 'json')) as { messages: object[] }
    expect(json.messages[0]).toMatchObject({ id: 'm1', supersedes: null, decidedBy: null })
  })

  it('lets the migrated session go on with the new fields', () => {
    version3Database()
    store = createSessionStore(dir)
    const again = store.appendMessage('s-old', {
      role: 'user',
      content: 'How tall is it, really?',
      supersedes: 1,
    })
    expect(again).toMatchObject({ seq: 3, supersedes: 1 })
    expect(store.listMessages('s-old').at(-1)).toEqual(again)
    const columns = store.db.prepare(`SELECT name FROM pragma_table_info('messages')`).pluck().all()
    expect(columns).toEqual(
      expect.arrayContaining(['supersedes', 'duration_ms', 'reasoning_ms', 'decided_by']),
    )
  })
})
