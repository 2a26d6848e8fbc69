import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  SessionNotFoundError,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { openTempStore } from '../support/session-store'
import { titleFromText } from '../../src-main/adapters/sqlite/text'

let store: SqliteSessionStore
let clock: number
let close: () => void

beforeEach(() => {
  clock = 1_000_000
  ;({ store, close } = openTempStore('cairn-storage-sessions-', { now: () => clock }))
})
afterEach(() => close())

describe('sessions', () => {
  it('creates a session with a random UUID and its settings', () => {
    const a = store.createSession({
      provider: 'http://x/v1',
      model: 'm1',
      workspace: '/w',
      systemPrompt: 'Be brief.',
    })
    const b = store.createSession()
    expect(a.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/)
    expect(a.id).not.toBe(b.id)
    expect(a).toEqual({
      id: a.id,
      title: '',
      createdAt: 1_000_000,
      updatedAt: 1_000_000,
      provider: 'http://x/v1',
      model: 'm1',
      workspace: '/w',
      systemPrompt: 'Be brief.',
      todos: [],
      usage: { inputTokens: 0, outputTokens: 0 },
      pinned: false,
      archived: false,
      messageCount: 0,
      leafSeq: null,
      origin: null,
      // none recorded yet: the default one, which new chats start with
      assistant: { id: 'default', name: 'Default' },
      // in no project
      projectId: null,
    })
    expect(store.getSession(a.id)).toEqual(a)
    expect(store.getSession('nope')).toBeNull()
  })

  it('remembers its model and provider, todos, workspace and system prompt', () => {
    const s = store.createSession({ provider: 'p1', model: 'm1' })
    const updated = store.updateSession(s.id, { model: 'm2', provider: 'p2' })
    expect(updated).toMatchObject({ model: 'm2', provider: 'p2' })
    store.setTodos(s.id, [{ id: 't1', content: 'Write tests', status: 'in_progress' }])
    store.updateSession(s.id, { workspace: '/tmp/w', systemPrompt: null })
    expect(store.getSession(s.id)).toMatchObject({
      model: 'm2',
      provider: 'p2',
      workspace: '/tmp/w',
      systemPrompt: null,
      todos: [{ id: 't1', content: 'Write tests', status: 'in_progress' }],
    })
    expect(() => store.updateSession('missing', { model: 'x' })).toThrow(SessionNotFoundError)
  })

  it('is titled by its first user message, in the same write, and can be renamed', () => {
    const s = store.createSession()
    store.appendMessage(s.id, { role: 'system', content: 'not a title' })
    expect(store.getSession(s.id)?.title).toBe('')
    const writes = store.writeCount
    store.appendMessage(s.id, {
      role: 'user',
      content: '  \n  Plan the   trip to Lisbon  \nwith a budget',
    })
    expect(store.writeCount).toBe(writes + 1)
    expect(store.getSession(s.id)?.title).toBe('Plan the trip to Lisbon')
    store.appendMessage(s.id, { role: 'user', content: 'Another question' })
    expect(store.getSession(s.id)?.title).toBe('Plan the trip to Lisbon')
    expect(store.renameSession(s.id, '  Lisbon, May  ').title).toBe('Lisbon, May')
    expect(store.getSession(s.id)?.title).toBe('Lisbon, May')
    expect(() => store.renameSession('missing', 'x')).toThrow(SessionNotFoundError)
  })

  it('cuts a long first line at about 60 characters on a word boundary with …', () => {
    const s = store.createSession()
    const line =
      'Please summarise the geological history of the Iberian peninsula including the Variscan orogeny'
    store.appendMessage(s.id, { role: 'user', content: `${line}\nsecond line` })
    const title = store.getSession(s.id)!.title
    expect(title).toBe('Please summarise the geological history of the Iberian…')
    expect(title.length).toBeLessThanOrEqual(61)
    expect(line.startsWith(title.slice(0, -1))).toBe(true)
    // one long word: a hard cut
    expect(titleFromText('x'.repeat(100))).toBe(`${'x'.repeat(59)}…`)
    expect(titleFromText('exactly sixty'.padEnd(60, '!'))).toHaveLength(60)
    expect(titleFromText('   \n\t\n')).toBe('')
  })

  it('keeps an explicit title', () => {
    const s = store.createSession({ title: 'Named' })
    store.appendMessage(s.id, { role: 'user', content: 'hello' })
    expect(store.getSession(s.id)?.title).toBe('Named')
  })

  it('lists pinned sessions first, then the most recently active, with paging and a total', () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) {
      clock += 1000
      ids.push(store.createSession({ title: `s${i}` }).id)
    }
    // activity moves s1 to the top of the unpinned ones
    clock += 1000
    store.appendMessage(ids[1]!, { role: 'user', content: 'bump' })
    // pinning does not count as activity, but puts s3 first
    clock += 1000
    store.setPinned(ids[3]!, true)
    const titles = (r: { sessions: { title: string }[] }): string[] =>
      r.sessions.map((x) => x.title)
    expect(titles(store.listSessions({ limit: 10 }))).toEqual(['s3', 's1', 's4', 's2', 's0'])
    const page = store.listSessions({ limit: 2, offset: 2 })
    expect(titles(page)).toEqual(['s4', 's2'])
    expect(page.total).toBe(5)
    expect(store.getSession(ids[3]!)?.updatedAt).toBe(1_000_000 + 4000)
    expect(store.listSessions({ limit: 10 }).sessions[1]?.messageCount).toBe(1)
  })

  it('leaves archived sessions out unless asked', () => {
    const a = store.createSession({ title: 'a' })
    store.createSession({ title: 'b' })
    expect(store.setArchived(a.id, true).archived).toBe(true)
    expect(store.listSessions({ limit: 10 })).toMatchObject({
      total: 1,
      sessions: [{ title: 'b' }],
    })
    const all = store.listSessions({ limit: 10, includeArchived: true })
    expect(all.total).toBe(2)
    expect(all.sessions.map((s) => s.title).sort()).toEqual(['a', 'b'])
    store.setArchived(a.id, false)
    expect(store.listSessions({ limit: 10 }).total).toBe(2)
  })

  it('deletes a session and its messages (cascade); false when there is none', () => {
    const s = store.createSession()
    const other = store.createSession()
    store.appendMessage(s.id, { role: 'user', content: 'one' })
    store.appendMessage(s.id, { role: 'assistant', content: 'two' })
    store.appendMessage(other.id, { role: 'user', content: 'three' })
    const writes = store.writeCount
    expect(store.deleteSession(s.id)).toBe(true)
    expect(store.writeCount).toBe(writes + 1)
    expect(store.getSession(s.id)).toBeNull()
    expect(store.listMessages(s.id)).toEqual([])
    const rows = store.db.prepare('SELECT session_id FROM messages').pluck().all()
    expect(rows).toEqual([other.id])
    expect(store.deleteSession(s.id)).toBe(false)
    expect(store.writeCount).toBe(writes + 1)
  })

  it('enforces foreign keys: a message cannot point at a missing session', () => {
    expect(() =>
      store.db
        .prepare(
          `INSERT INTO messages (id, session_id, seq, kind, role, content, status, created_at)
           VALUES ('m', 'no-such-session', 1, 'message', 'user', 'x', 'complete', 0)`,
        )
        .run(),
    ).toThrow(/FOREIGN KEY/)
    expect(() => store.appendMessage('no-such-session', { role: 'user', content: 'x' })).toThrow(
      SessionNotFoundError,
    )
  })
})
