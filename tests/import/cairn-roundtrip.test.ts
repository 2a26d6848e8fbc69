/**
 * Cairn's own JSON export imports back identical (issue 21): the same messages in the same
 * tree (another answer, an edit), tool calls with their results, reasoning, usage, a
 * summary over a range, and the same branch open; importing it again adds nothing.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it } from 'vitest'
import { importFile } from '../../src-main/adapters/import/import-file'
import type { StoredMessage } from '../../src-preload/contract/dto'
import type { SqliteSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { openTempStore, type TempStore } from '../support/session-store'

let temp: TempStore
let store: SqliteSessionStore

beforeEach(() => {
  temp = openTempStore('cairn-import-roundtrip-')
  store = temp.store
})
afterEach(() => temp.close())

/** what makes two chats the same: everything but the ids the store gives */
const same = (m: StoredMessage) => {
  const { id: _id, sessionId: _s, ...rest } = m
  return rest
}

it('export then import gives the same chat, tree and open branch included', async () => {
  const id = store.createSession({ model: 'qwen3', systemPrompt: 'Be brief.', title: 'Rocks' }).id
  store.appendMessage(id, { role: 'user', content: 'Name a stone' })
  store.appendMessage(id, {
    role: 'assistant',
    content: 'Let me look.',
    reasoning: 'A lookup helps.',
    model: 'qwen3',
    toolCalls: [{ id: 'c1', name: 'lookup', arguments: '{"q":"stone"}' }],
    usage: { inputTokens: 10, outputTokens: 4, estimated: false },
  })
  store.appendMessage(id, {
    role: 'tool',
    content: 'granite',
    toolCallId: 'c1',
    toolName: 'lookup',
  })
  const granite = store.appendMessage(id, {
    role: 'assistant',
    content: 'Granite.',
    model: 'qwen3',
  })
  store.appendMessage(id, { role: 'user', content: 'Another' })
  store.appendMessage(id, { role: 'assistant', content: 'Basalt.', model: 'qwen3' })
  // another answer to "Another", and an edit of it
  store.appendMessage(id, { role: 'assistant', content: 'Obsidian.', parentSeq: 5 })
  store.appendMessage(id, { role: 'user', content: 'Another, volcanic', parentSeq: granite.seq })
  store.appendMessage(id, {
    role: 'user',
    kind: 'summary',
    content: 'They talked about stones.',
    parentSeq: granite.seq,
    covers: { from: 1, to: 4 },
  })
  store.setLeaf(id, 6)
  const file = join(temp.dir, 'rocks.json')
  writeFileSync(file, store.exportSession(id, 'json'))

  const summary = await importFile(store, file)
  expect(summary).toMatchObject({ created: 1, messages: 9, skipped: [], sources: ['cairn'] })
  const copy = store.listSessions({ limit: 10 }).sessions.find((s) => s.id !== id)!
  const original = store.getSession(id)!
  expect(copy.origin).toMatchObject({ kind: 'import', source: 'cairn', sourceId: id })
  expect([copy.title, copy.model, copy.systemPrompt, copy.leafSeq]).toEqual([
    'Rocks',
    'qwen3',
    'Be brief.',
    original.leafSeq,
  ])
  expect(store.listMessages(copy.id).map(same)).toEqual(store.listMessages(id).map(same))

  const again = await importFile(store, file)
  expect(again).toMatchObject({ created: 0, messages: 0, unchanged: 1 })
})
