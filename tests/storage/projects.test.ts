import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SqliteProjectStore } from '../../src-main/adapters/sqlite/project-store'
import { SCHEMA_VERSION, userVersion } from '../../src-main/adapters/sqlite/migrations'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { ExpectedError } from '../../src-main/core/errors'
import { databaseAtVersion } from '../support/session-store'

let dir: string
let store: SqliteSessionStore | null = null

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-projects-'))
})
afterEach(() => {
  store?.close()
  store = null
  rmSync(dir, { recursive: true, force: true })
})

function open(): { store: SqliteSessionStore; projects: SqliteProjectStore } {
  store = createSessionStore(dir)
  let t = 1000
  return { store, projects: new SqliteProjectStore(store, () => ++t) }
}

function thrown(fn: () => unknown): ExpectedError {
  try {
    fn()
  } catch (e) {
    if (e instanceof ExpectedError) return e
    throw e
  }
  throw new Error('expected an ExpectedError')
}

describe('the projects table (migration v13)', () => {
  it('keeps the chats of an earlier database, in no project', () => {
    const db = databaseAtVersion(dir, 12)
    db.prepare(
      `INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s-old', 'Old talk', 1, 2)`,
    ).run()
    db.close()
    const { store, projects } = open()
    expect(userVersion(store.db)).toBe(SCHEMA_VERSION)
    expect(store.getSession('s-old')).toMatchObject({ title: 'Old talk', projectId: null })
    expect(projects.list()).toEqual([])
  })
})

describe('SqliteProjectStore', () => {
  it('creates, lists by name, reads by id and by name without case', () => {
    const { projects } = open()
    const b = projects.create({ name: ' Thesis ', instructions: 'Cite sources.' })
    const a = projects.create({
      name: 'accounts',
      instructions: '',
      assistantId: 'default',
      model: 'm-1',
      workspace: '/tmp/acc',
    })
    expect(projects.list().map((p) => p.name)).toEqual(['accounts', 'Thesis'])
    expect(projects.get(b.id)).toMatchObject({
      name: 'Thesis',
      instructions: 'Cite sources.',
      chatCount: 0,
    })
    expect(projects.findByName('THESIS ')?.id).toBe(b.id)
    expect(projects.get(a.id)).toMatchObject({
      assistantId: 'default',
      model: 'm-1',
      workspace: '/tmp/acc',
    })
    expect(projects.get('nope')).toBeNull()
  })

  it('refuses a name another project has, in any case, naming the field', () => {
    const { projects } = open()
    const one = projects.create({ name: 'Thesis', instructions: '' })
    const e = thrown(() => projects.create({ name: 'thesis', instructions: '' }))
    expect(e.code).toBe('conflict')
    expect(e.info().details).toEqual({ fields: { name: expect.stringContaining('"Thesis"') } })
    const two = projects.create({ name: 'Other', instructions: '' })
    expect(thrown(() => projects.update(two.id, { name: 'THESIS' })).code).toBe('conflict')
    // its own name, in another case, is not a conflict
    expect(projects.update(one.id, { name: 'THESIS' }).name).toBe('THESIS')
  })

  it('updates what the patch gives, clears with null, keeps the rest', () => {
    const { projects } = open()
    const p = projects.create({ name: 'P', instructions: 'old', model: 'm', workspace: '/w' })
    const changed = projects.update(p.id, { instructions: 'new', model: null })
    expect(changed).toMatchObject({ name: 'P', instructions: 'new', workspace: '/w' })
    expect(changed.model).toBeUndefined()
    expect(changed.updatedAt).toBeGreaterThan(p.updatedAt)
    expect(changed.createdAt).toBe(p.createdAt)
    expect(thrown(() => projects.update('missing', { name: 'x' })).code).toBe('not_found')
  })

  it('puts chats in a project, counts them, and moves them to no project when it is deleted', () => {
    const { store, projects } = open()
    const p = projects.create({ name: 'P', instructions: '' })
    const inside = store.createSession({ title: 'in', projectId: p.id })
    const moved = store.createSession({ title: 'moved' })
    const outside = store.createSession({ title: 'out' })
    expect(projects.setForSession(moved.id, p.id)).toBe(true)
    expect(projects.setForSession('no-such-chat', p.id)).toBe(false)
    expect(thrown(() => projects.setForSession(outside.id, 'no-such-project')).code).toBe(
      'not_found',
    )
    expect(store.getSession(inside.id)?.projectId).toBe(p.id)
    expect(store.getSession(moved.id)?.projectId).toBe(p.id)
    expect(projects.get(p.id)?.chatCount).toBe(2)

    expect(projects.delete(p.id)).toEqual({ deleted: true, movedChats: 2 })
    expect(store.getSession(inside.id)).toMatchObject({ title: 'in', projectId: null })
    expect(store.getSession(moved.id)?.projectId).toBeNull()
    expect(store.listSessions({ limit: 10 }).total).toBe(3)
    expect(projects.delete(p.id)).toEqual({ deleted: false, movedChats: 0 })
  })

  it('keeps the project when a chat is branched into a new one', () => {
    const { store, projects } = open()
    const p = projects.create({ name: 'P', instructions: '' })
    const s = store.createSession({ projectId: p.id })
    const m = store.appendMessage(s.id, { role: 'user', content: 'hello' })
    expect(store.forkSession(s.id, m.seq).projectId).toBe(p.id)
  })

  it('leaves out a row that does not fit the contract', () => {
    const { store, projects } = open()
    projects.create({ name: 'Good', instructions: '' })
    store.db
      .prepare(
        `INSERT INTO projects (id, name, instructions, created_at, updated_at) VALUES ('bad', '', '', 1, 1)`,
      )
      .run()
    expect(projects.list().map((p) => p.name)).toEqual(['Good'])
    expect(projects.get('bad')).toBeNull()
  })
})
