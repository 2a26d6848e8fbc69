import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openBranch } from '../../src-main/core/agent/history-tree'
import { SCHEMA_VERSION, userVersion } from '../../src-main/adapters/sqlite/migrations'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { databaseAtVersion } from '../support/session-store'

let dir: string
let store: SqliteSessionStore | null = null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-storage-v10-'))
})
afterEach(() => {
  store?.close()
  store = null
  rmSync(dir, { recursive: true, force: true })
})

type Row = [seq: number, role: string, content: string, supersedes: number | null, kind?: string]

/**
 * A database as version 9 left it. Session "branched": asked, regenerated (6 supersedes
 * 3), then edited (8 supersedes 6), with a summary written on the way (5) and a later
 * exchange; session "plain": one exchange; session "empty".
 */
function version9Database(): void {
  const db = databaseAtVersion(dir, 9)
  const session = db.prepare(
    `INSERT INTO sessions (id, title, created_at, updated_at) VALUES (?, ?, 1, 2)`,
  )
  const insert = db.prepare(
    `INSERT INTO messages (id, session_id, seq, kind, role, content, status, supersedes,
       covers_from, covers_to, created_at)
     VALUES (?, ?, ?, ?, ?, ?, 'complete', ?, ?, ?, 3)`,
  )
  session.run('branched', 'Branched')
  const rows: Row[] = [
    [1, 'user', 'q1', null],
    [2, 'assistant', 'a1', null],
    [3, 'user', 'q2', null],
    [4, 'assistant', 'a2 first', null],
    [5, 'assistant', 'summary of q1 a1', null, 'summary'],
    [6, 'user', 'q2', 3],
    [7, 'assistant', 'a2 second', null],
    [8, 'user', 'q2 edited', 6],
    [9, 'assistant', 'a2 third', null],
    [10, 'user', 'q3', null],
    [11, 'assistant', 'a3', null],
  ]
  for (const [seq, role, content, supersedes, kind] of rows) {
    const covers = kind === 'summary' ? [1, 2] : [null, null]
    insert.run(`b${seq}`, 'branched', seq, kind ?? 'message', role, content, supersedes, ...covers)
  }
  session.run('plain', 'Plain')
  insert.run('p1', 'plain', 1, 'message', 'user', 'hi', null, null, null)
  insert.run('p2', 'plain', 2, 'message', 'assistant', 'hello', null, null, null)
  session.run('empty', 'Empty')
  db.close()
}

describe('migration 10: the conversation tree', () => {
  it('derives every message’s parent and each session’s open branch from order and supersedes', () => {
    version9Database()
    store = createSessionStore(dir)
    expect(userVersion(store.db)).toBe(SCHEMA_VERSION)
    expect(readdirSync(dir).filter((f) => f.startsWith('cairn.db.bak-v9-'))).toHaveLength(1)
    const messages = store.listMessages('branched')
    expect(messages.map((m) => [m.seq, m.parentSeq])).toEqual([
      [1, null],
      [2, 1],
      [3, 2],
      [4, 3],
      [5, 4], // the summary follows what came before it, and nothing follows it
      [6, 2], // a new version of 3: it follows what 3 followed
      [7, 6],
      [8, 2],
      [9, 8],
      [10, 9],
      [11, 10],
    ])
    expect(store.getSession('branched')?.leafSeq).toBe(11)
    expect(store.getSession('plain')).toMatchObject({ leafSeq: 2, origin: null })
    expect(store.listMessages('plain').map((m) => m.parentSeq)).toEqual([null, 1])
    expect(store.getSession('empty')?.leafSeq).toBeNull()
    // the open branch is what the window showed: the newest versions, the summary of q1 a1
    const branch = openBranch(messages, store.getSession('branched')!.leafSeq)
    expect(branch.map((m) => m.content)).toEqual([
      'q1',
      'a1',
      'summary of q1 a1',
      'q2 edited',
      'a2 third',
      'q3',
      'a3',
    ])
  })

  it('lets a migrated session go on, on its open branch, and open an earlier one', () => {
    version9Database()
    store = createSessionStore(dir)
    const next = store.appendMessage('branched', { role: 'user', content: 'q4' })
    expect(next).toMatchObject({ seq: 12, parentSeq: 11 })
    expect(store.getSession('branched')?.leafSeq).toBe(12)
    // the second version of q2, at the newest message that followed it
    expect(store.openBranchAt('branched', 6)?.leafSeq).toBe(7)
    const earlier = openBranch(store.listMessages('branched'), 7)
    expect(earlier.map((m) => m.content)).toEqual(['q1', 'a1', 'summary of q1 a1', 'q2', 'a2 second'])
    expect(store.openBranchAt('branched', 5)).toBeNull()
    expect(store.openBranchAt('branched', 99)).toBeNull()
    const columns = store.db.prepare(`SELECT name FROM pragma_table_info('sessions')`).pluck().all()
    expect(columns).toEqual(expect.arrayContaining(['leaf_seq', 'source', 'source_id']))
  })
})
