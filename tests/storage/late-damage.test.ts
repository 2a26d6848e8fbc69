/**
 * A database that opens but is damaged further in: the query that meets the damage fails
 * with a StorageError that says what is wrong and what to do (problem `database_damaged`),
 * never a bare SQLite error; the store remembers it; other errors pass as they are.
 */
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { SqliteAssistantStore } from '../../src-main/adapters/sqlite/assistant-store'
import { StorageError } from '../../src-main/adapters/sqlite/open-errors'
import {
  createSessionStore,
  SessionNotFoundError,
} from '../../src-main/adapters/sqlite/session-store'
import { useTempDirs } from '../settings/temp-dirs'
import { damagePages, rawQueryError } from './late-damage'

const tempDir = useTempDirs()

/** a data directory with two sessions, enough messages for several pages, then closed */
function dataDir(): { dir: string; file: string; long: string; short: string } {
  const dir = tempDir()
  const store = createSessionStore(dir)
  const long = store.createSession({ title: 'a long one' }).id
  const short = store.createSession({ title: 'a short one' }).id
  for (let i = 0; i < 60; i++)
    store.appendMessage(long, {
      role: i % 2 ? 'assistant' : 'user',
      content: `message ${i} `.repeat(40),
    })
  store.appendMessage(short, { role: 'user', content: 'hello' })
  store.close()
  return { dir, file: path.join(dir, 'cairn.db'), long, short }
}

const damaged = (e: unknown): void => {
  expect(e).toBeInstanceOf(StorageError)
  expect(e).toMatchObject({ code: 'database_damaged' })
  expect((e as Error).message).toMatch(/cannot be used: part of it is damaged/)
  expect((e as Error).message).toMatch(/SQLITE_CORRUPT/)
  expect((e as Error).message).toMatch(/copy it aside .*start a new, empty one/)
}

function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (e) {
    return e
  }
  throw new Error('expected it to throw')
}

describe('damage found after the database opened', () => {
  it('reading or writing a damaged table says so, and the store remembers it', () => {
    const { dir, file, long, short } = dataDir()
    expect(damagePages(file, 'messages').length).toBeGreaterThan(2)
    // SQLite opens it and the schema reads; the messages' pages do not
    expect(rawQueryError(file, 'SELECT count(*) FROM sqlite_master')).toBeNull()
    expect(rawQueryError(file, 'SELECT content FROM messages')).toMatch(/^SQLITE_CORRUPT/)

    const store = createSessionStore(dir)
    try {
      expect(store.damage).toBeNull()
      const read = thrown(() => store.listMessages(long))
      damaged(read)
      expect(read).toMatchObject({ path: file })
      expect((read as Error).cause).toMatchObject({
        code: expect.stringMatching(/^SQLITE_CORRUPT/),
      })
      expect(store.damage).toBe(read)

      damaged(thrown(() => store.getMessages(long, { limit: 5 })))
      damaged(thrown(() => store.exportSession(short, 'md')))
      damaged(thrown(() => store.appendMessage(short, { role: 'user', content: 'more' })))
      // the first damage found is the one remembered
      expect(store.damage).toBe(read)
      // what is not damage is not made into damage
      expect(
        thrown(() => store.appendMessage('no-such-session', { role: 'user', content: 'x' })),
      ).toBeInstanceOf(SessionNotFoundError)
    } finally {
      store.close()
    }
  })

  it('a query of the assistant store meets it the same way, and the session store remembers it', () => {
    const { dir, file } = dataDir()
    damagePages(file, 'assistants')
    expect(rawQueryError(file, 'SELECT * FROM assistants')).toMatch(/^SQLITE_CORRUPT/)
    const store = createSessionStore(dir)
    try {
      const e = thrown(() => new SqliteAssistantStore(store).list())
      damaged(e)
      expect((e as Error).message).toContain(file)
      expect(store.damage).toBe(e)
    } finally {
      store.close()
    }
  })

  it('taking the lease of a session meets it the same way, and the store remembers it', () => {
    const { dir, file, short } = dataDir()
    damagePages(file, 'sqlite_autoindex_session_leases_1')
    expect(rawQueryError(file, `SELECT * FROM session_leases WHERE session_id = 'x'`)).toMatch(
      /^SQLITE_CORRUPT/,
    )
    const store = createSessionStore(dir)
    try {
      const e = thrown(() => store.leases.acquire(short, 'cli'))
      damaged(e)
      expect(store.damage).toBe(e)
    } finally {
      store.close()
    }
  })

  it('findDamage: null on a sound database; SQLite’s check finds damage no query met yet', () => {
    const { dir, file } = dataDir()
    const sound = createSessionStore(dir)
    try {
      expect(sound.findDamage()).toBeNull()
    } finally {
      sound.close()
    }
    damagePages(file, 'messages_fts_idx')
    const store = createSessionStore(dir)
    try {
      expect(store.damage).toBeNull()
      const found = store.findDamage()
      expect(found).toBeInstanceOf(StorageError)
      expect(found).toMatchObject({ code: 'database_damaged', path: file })
      expect(found!.message).toMatch(/cannot be used: part of it is damaged/)
      expect(store.damage).toBe(found)
    } finally {
      store.close()
    }
  })

  it('a damaged index fails the search that reads it the same way', () => {
    const { dir, file } = dataDir()
    damagePages(file, 'messages_fts_data')
    expect(
      rawQueryError(file, "SELECT * FROM messages_fts WHERE messages_fts MATCH 'message'"),
    ).toMatch(/^SQLITE_CORRUPT/)
    const store = createSessionStore(dir)
    try {
      damaged(thrown(() => store.search('message', { order: 'ranked', limit: 10 })))
    } finally {
      store.close()
    }
  })
})
