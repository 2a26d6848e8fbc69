/**
 * The projects routes and `sessions.setProject` through the contract (the desktop app's
 * IPC): create, read, edit, delete, move a chat, and what each refuses.
 */
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { unwrap, type TestBridge } from '../support/bridges'
import { openTestHost } from '../support/host'

let b: TestBridge
let stop: () => Promise<void>
let chatId = ''

beforeAll(async () => {
  ;({ b, stop } = await openTestHost({
    prefix: 'cairn-project-routes-',
    beforeOpen: (dir) => {
      const store = createSessionStore(join(dir, 'data'))
      chatId = store.createSession({ title: 'A chat' }).id
      store.close()
    },
  }))
})
afterAll(() => stop())

describe('projects routes', () => {
  it('creates, lists, reads and edits; names are unique in any case', async () => {
    const p = unwrap(
      await b.request('projects.create', {
        project: { name: 'Thesis', instructions: 'Cite.', assistantId: 'default' },
      }),
    )
    expect(p).toMatchObject({ name: 'Thesis', instructions: 'Cite.', chatCount: 0 })
    expect(unwrap(await b.request('projects.get', { id: p.id }))).toEqual(p)
    expect(unwrap(await b.request('projects.list', {})).projects.map((x) => x.name)).toEqual([
      'Thesis',
    ])
    const taken = await b.request('projects.create', {
      project: { name: ' thesis', instructions: '' },
    })
    expect(taken).toMatchObject({
      ok: false,
      error: { code: 'conflict', details: { fields: { name: expect.any(String) } } },
    })
    const edited = unwrap(
      await b.request('projects.update', { id: p.id, patch: { model: 'm', assistantId: null } }),
    )
    expect(edited).toMatchObject({ name: 'Thesis', model: 'm' })
    expect(edited).not.toHaveProperty('assistantId')
  })

  it('refuses bad input with the field named', async () => {
    const blank = await b.request('projects.create', { project: { name: '  ', instructions: '' } })
    expect(blank).toMatchObject({ ok: false, error: { code: 'bad_request' } })
    const relative = await b.request('projects.create', {
      project: { name: 'Rel', instructions: '', workspace: 'docs' },
    })
    expect(relative).toMatchObject({
      ok: false,
      error: { code: 'bad_request', details: { fields: { workspace: expect.any(String) } } },
    })
    const ghost = await b.request('projects.create', {
      project: { name: 'Ghost', instructions: '', assistantId: 'nobody' },
    })
    expect(ghost).toMatchObject({
      ok: false,
      error: { code: 'bad_request', details: { fields: { assistantId: expect.any(String) } } },
    })
    expect(await b.request('projects.get', { id: 'missing' })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })

  it('moves a chat into a project and out; deleting the project keeps the chat', async () => {
    const p = unwrap(
      await b.request('projects.create', { project: { name: 'Move', instructions: '' } }),
    )
    const moved = unwrap(await b.request('sessions.setProject', { id: chatId, projectId: p.id }))
    expect(moved.projectId).toBe(p.id)
    expect(unwrap(await b.request('projects.get', { id: p.id })).chatCount).toBe(1)
    const listed = unwrap(await b.request('sessions.list', {}))
    expect(listed.sessions.find((s) => s.id === chatId)?.projectId).toBe(p.id)
    expect(await b.request('sessions.setProject', { id: chatId, projectId: 'nope' })).toMatchObject(
      {
        ok: false,
        error: { code: 'not_found' },
      },
    )
    expect(await b.request('sessions.setProject', { id: 'nope', projectId: null })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
    expect(unwrap(await b.request('projects.delete', { id: p.id }))).toEqual({
      deleted: true,
      movedChats: 1,
    })
    const after = unwrap(await b.request('sessions.get', { id: chatId }))
    expect(after.session.projectId).toBeNull()
    expect(await b.request('projects.delete', { id: p.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })
})
