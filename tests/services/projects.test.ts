import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { SqliteAssistantStore } from '../../src-main/adapters/sqlite/assistant-store'
import { SqliteProjectStore } from '../../src-main/adapters/sqlite/project-store'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { ExpectedError } from '../../src-main/core/errors'
import { ProjectService } from '../../src-main/services/projects/project-service'

let dir: string
let store: SqliteSessionStore
let service: ProjectService

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-project-service-'))
  store = createSessionStore(dir)
  service = new ProjectService(
    new SqliteProjectStore(store),
    new SqliteAssistantStore(store),
    store,
  )
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

function refusal(fn: () => unknown): ExpectedError {
  try {
    fn()
  } catch (e) {
    if (e instanceof ExpectedError) return e
    throw e
  }
  throw new Error('expected an ExpectedError')
}

describe('ProjectService', () => {
  it('checks the input with the contract, naming each field it refuses', () => {
    const e = refusal(() => service.create({ name: '', instructions: 3 }))
    expect(e.code).toBe('bad_request')
    const fields = (e.info().details as { fields: Record<string, string> }).fields
    expect(Object.keys(fields).sort()).toEqual(['instructions', 'name'])
    expect(refusal(() => service.create({ name: 'x', instructions: '', extra: 1 })).code).toBe(
      'bad_request',
    )
    expect(service.list()).toEqual([])
  })

  it('refuses an assistant that does not exist and a relative workspace', () => {
    const noAssistant = refusal(() =>
      service.create({ name: 'P', instructions: '', assistantId: 'ghost' }),
    )
    expect(noAssistant.info()).toMatchObject({
      code: 'bad_request',
      details: { fields: { assistantId: expect.stringContaining('"ghost"') } },
    })
    const relative = refusal(() =>
      service.create({ name: 'P', instructions: '', workspace: 'docs/thesis' }),
    )
    expect(relative.info()).toMatchObject({
      code: 'bad_request',
      details: { fields: { workspace: expect.stringContaining('absolute path') } },
    })
    const p = service.create({
      name: 'P',
      instructions: '',
      assistantId: 'default',
      workspace: dir,
    })
    expect(refusal(() => service.edit(p.name, { workspace: 'rel' })).code).toBe('bad_request')
    expect(service.require(p.id).workspace).toBe(dir)
  })

  it('finds a project by id or by name, and says how to list them when there is none', () => {
    const p = service.create({ name: 'Thesis', instructions: 'Be brief.' })
    expect(service.require(p.id).name).toBe('Thesis')
    expect(service.require('thesis').id).toBe(p.id)
    const e = refusal(() => service.require('Novel'))
    expect(e.code).toBe('not_found')
    expect(e.message).toContain('cairn projects list')
  })

  it('edits by name; null clears an optional field', () => {
    service.create({ name: 'Thesis', instructions: '', model: 'm-1' })
    const edited = service.edit('Thesis', { name: 'Dissertation', model: null, instructions: 'x' })
    expect(edited).toMatchObject({ name: 'Dissertation', instructions: 'x' })
    expect(edited.model).toBeUndefined()
    expect(refusal(() => service.edit('Thesis', {})).code).toBe('not_found')
  })

  it('moves chats between projects and out of them; deleting a project keeps its chats', () => {
    const a = service.create({ name: 'A', instructions: '' })
    const b = service.create({ name: 'B', instructions: '' })
    const chat = store.createSession({ title: 'talk' })
    expect(service.moveSession(chat.id, 'A').projectId).toBe(a.id)
    expect(service.forSession(store.getSession(chat.id)!)?.name).toBe('A')
    expect(service.moveSession(chat.id, b.id).projectId).toBe(b.id)
    expect(service.moveSession(chat.id, null).projectId).toBeNull()
    expect(service.forSession(store.getSession(chat.id)!)).toBeNull()
    expect(refusal(() => service.moveSession('nope', 'A')).code).toBe('not_found')
    expect(refusal(() => service.moveSession(chat.id, 'C')).code).toBe('not_found')

    service.moveSession(chat.id, 'A')
    const gone = service.delete('A')
    expect(gone).toMatchObject({ deleted: true, movedChats: 1, project: { name: 'A' } })
    expect(store.getSession(chat.id)).toMatchObject({ title: 'talk', projectId: null })
    expect(service.list().map((p) => p.name)).toEqual(['B'])
  })
})
