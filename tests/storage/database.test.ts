import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import Database from 'better-sqlite3'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { BUSY_TIMEOUT_MS, openDatabase } from '../../src-main/adapters/sqlite/database'
import {
  MIGRATIONS,
  NewerSchemaError,
  SCHEMA_VERSION,
  userVersion,
} from '../../src-main/adapters/sqlite/migrations'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'

let dir: string
const toClose: { close(): unknown; open?: boolean }[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-storage-db-'))
})
afterEach(() => {
  for (const c of toClose.splice(0)) if (c.open !== false) c.close()
  rmSync(dir, { recursive: true, force: true })
})

function store(): SqliteSessionStore {
  const s = createSessionStore(dir)
  toClose.push(s)
  return s
}

function backups(): string[] {
  return readdirSync(dir).filter((f) => f.startsWith('cairn.db.bak-'))
}

/** a database as version 1 of the schema left it, with one session and its WAL still open */
function olderDatabase(file: string): Database.Database {
  const db = new Database(file)
  toClose.push(db)
  db.pragma('journal_mode = WAL')
  db.pragma('wal_autocheckpoint = 0')
  db.exec(MIGRATIONS[0]!.sql)
  db.pragma('user_version = 1')
  db.prepare(
    `INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s-old', 'Granite survey notes', 1, 2)`,
  ).run()
  return db
}

describe('opening the database', () => {
  it('uses WAL, foreign keys, synchronous NORMAL and a busy timeout of at least 5 s', () => {
    const { db } = store()
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal')
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1)
    expect(db.pragma('synchronous', { simple: true })).toBe(1)
    expect(Number(db.pragma('busy_timeout', { simple: true }))).toBeGreaterThanOrEqual(5000)
    expect(BUSY_TIMEOUT_MS).toBeGreaterThanOrEqual(5000)
  })

  it('creates the data directory and <dataDir>/cairn.db', () => {
    const nested = join(dir, 'a', 'b')
    const s = createSessionStore(nested)
    toClose.push(s)
    expect(existsSync(join(nested, 'cairn.db'))).toBe(true)
  })

  it('migrates a fresh database to the latest version without a backup', () => {
    const { db } = store()
    expect(userVersion(db)).toBe(SCHEMA_VERSION)
    expect(SCHEMA_VERSION).toBe(MIGRATIONS.at(-1)!.version)
    const tables = db
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'table' ORDER BY name`)
      .pluck()
      .all()
    expect(tables).toEqual(
      expect.arrayContaining(['messages', 'messages_fts', 'sessions', 'sessions_fts']),
    )
    expect(backups()).toEqual([])
  })

  it('reopening an up-to-date database changes nothing and takes no backup', () => {
    const s = store()
    s.createSession({ title: 'kept' })
    s.close()
    const again = store()
    expect(again.listSessions({ limit: 10 }).sessions.map((x) => x.title)).toEqual(['kept'])
    expect(backups()).toEqual([])
  })

  it('backs up an existing database (WAL content included) before migrating it', () => {
    const file = join(dir, 'cairn.db')
    olderDatabase(file)
    // the row is only in the WAL: a copy of the main file alone does not have it
    copyFileSync(file, join(dir, 'plain-copy.db'))
    const plain = new Database(join(dir, 'plain-copy.db'), { readonly: true })
    expect(
      plain.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'sessions'`).pluck().get(),
    ).toBe(0)
    plain.close()

    const migrated: { from: number; to: number; backup: string | null }[] = []
    const db = openDatabase(file, {
      now: () => Date.UTC(2025, 0, 2, 3, 4, 5),
      onMigrated: (r) => migrated.push(r),
    })
    toClose.push(db)
    expect(userVersion(db)).toBe(SCHEMA_VERSION)
    expect(backups()).toEqual(['cairn.db.bak-v1-20250102T030405000Z'])
    expect(migrated).toEqual([{ from: 1, to: SCHEMA_VERSION, backup: join(dir, backups()[0]!) }])

    const backup = new Database(join(dir, backups()[0]!), { readonly: true })
    expect(backup.pragma('user_version', { simple: true })).toBe(1)
    expect(backup.prepare('SELECT id, title FROM sessions').all()).toEqual([
      { id: 's-old', title: 'Granite survey notes' },
    ])
    backup.close()
  })

  it('migrated data is usable: the old session is there and its title is searchable (v2 backfill)', () => {
    olderDatabase(join(dir, 'cairn.db'))
    const s = store()
    expect(s.getSession('s-old')?.title).toBe('Granite survey notes')
    expect(s.search('granite', { order: 'newest' })).toEqual([
      expect.objectContaining({
        sessionId: 's-old',
        messageId: null,
        snippet: '[Granite] survey notes',
      }),
    ])
    expect(backups()).toHaveLength(1)
  })

  it('refuses a database written by a newer version, and leaves it alone', () => {
    const file = join(dir, 'cairn.db')
    const db = new Database(file)
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`)
    db.close()
    expect(() => openDatabase(file)).toThrow(NewerSchemaError)
    const check = new Database(file)
    expect(check.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION + 1)
    check.close()
    expect(backups()).toEqual([])
  })

  it('passes nativeBinding through to better-sqlite3', () => {
    const require = createRequire(import.meta.url)
    const pkg = dirname(require.resolve('better-sqlite3/package.json'))
    const binary = join(pkg, 'build', 'Release', 'better_sqlite3.node')
    const s = createSessionStore(join(dir, 'bound'), { nativeBinding: binary })
    toClose.push(s)
    expect(s.createSession({ title: 'bound' }).title).toBe('bound')
    expect(() =>
      createSessionStore(join(dir, 'missing'), { nativeBinding: join(dir, 'nope.node') }),
    ).toThrow()
  })
})
