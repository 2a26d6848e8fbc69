/**
 * A session read page by page (as the window reads it) says what the whole session says: a
 * tool result whose call could not be read is unreadable even when the call is on another
 * page, and every other message reads as it does in one piece.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { useTempDirs } from '../settings/temp-dirs'

const tempDir = useTempDirs()
let store: SqliteSessionStore
let sessionId: string

const brief = (m: StoredMessage): string => `${m.seq}:${m.role}:${m.kind}`

/** every page of `size`, newest first as the window scrolls up, put back in order */
function pagesBackward(size: number): StoredMessage[] {
  const pages: StoredMessage[][] = []
  let beforeSeq: number | undefined
  for (;;) {
    const page = store.getMessages(sessionId, {
      limit: size,
      ...(beforeSeq !== undefined ? { beforeSeq } : {}),
    })
    if (page.length === 0) break
    pages.unshift(page)
    beforeSeq = page[0]!.seq
  }
  return pages.flat()
}

function pagesForward(size: number): StoredMessage[] {
  const out: StoredMessage[] = []
  let afterSeq = 0
  for (;;) {
    const page = store.getMessages(sessionId, { afterSeq, limit: size })
    if (page.length === 0) break
    out.push(...page)
    afterSeq = page.at(-1)!.seq
  }
  return out
}

beforeEach(() => {
  store = createSessionStore(tempDir())
  sessionId = store.createSession({ title: 'paged' }).id
  const add = (m: Parameters<SqliteSessionStore['appendMessage']>[1]): StoredMessage =>
    store.appendMessage(sessionId, { status: 'complete', ...m })
  add({ role: 'user', content: 'read two notes' }) // 1
  const call = add({
    role: 'assistant',
    content: '',
    toolCalls: [
      { id: 'c1', name: 'read_note', arguments: '{"key":"a"}' },
      { id: 'c2', name: 'read_note', arguments: '{"key":"b"}' },
      { id: 'c3', name: 'read_note', arguments: '{"key":"c"}' },
    ],
  }) // 2
  add({ role: 'tool', content: 'note a', toolCallId: 'c1', toolName: 'read_note' }) // 3
  const damagedResult = add({
    role: 'tool',
    content: 'note b',
    toolCallId: 'c2',
    toolName: 'read_note',
  }) // 4
  add({ role: 'tool', content: 'note c', toolCallId: 'c3', toolName: 'read_note' }) // 5
  add({ role: 'assistant', content: 'Both read.' }) // 6
  add({ role: 'user', content: 'and now?' }) // 7
  add({
    role: 'assistant',
    content: '',
    toolCalls: [{ id: 'c4', name: 'read_note', arguments: '{"key":"d"}' }],
  }) // 8
  add({ role: 'tool', content: 'note d', toolCallId: 'c4', toolName: 'read_note' }) // 9
  add({ role: 'assistant', content: 'Done.' }) // 10
  store.db.prepare('UPDATE messages SET tool_calls = ? WHERE id = ?').run('[{"id": "c1', call.id)
  store.db.prepare('UPDATE messages SET parts = ? WHERE id = ?').run('{not json', damagedResult.id)
})
afterEach(() => store.close())

describe('a session read page by page', () => {
  it('marks the results of an unreadable call unreadable, on whichever page they are', () => {
    const whole = store.listMessages(sessionId)
    // in one piece: the call and all three of its results are unreadable, the rest reads
    expect(whole.map(brief)).toEqual([
      '1:user:message',
      '2:assistant:notice',
      '3:tool:notice',
      '4:tool:notice',
      '5:tool:notice',
      '6:assistant:message',
      '7:user:message',
      '8:assistant:message',
      '9:tool:message',
      '10:assistant:message',
    ])
    expect(whole[4]!.content).toMatch(/answers a tool call whose request could not be read/)
    expect(whole[8]).toMatchObject({ content: 'note d', toolCallId: 'c4' })

    // the call on one page, its results on the next (the window opens at the end and scrolls up)
    const newest = store.getMessages(sessionId, { limit: 8 })
    expect(newest[0]).toMatchObject({ seq: 3, role: 'tool', kind: 'notice' })
    expect(newest[0]!.content).toMatch(/answers a tool call whose request could not be read/)
    expect(newest[0]!.toolCallId).toBe('c1')

    for (let size = 1; size <= whole.length + 1; size++) {
      expect(pagesBackward(size), `pages of ${size}, scrolling up`).toEqual(whole)
      expect(pagesForward(size), `pages of ${size}, forward`).toEqual(whole)
    }
  })

  it('a page that starts with results of a readable call shows them as they are', () => {
    const page = store.getMessages(sessionId, { beforeSeq: 10, limit: 1 })
    expect(page.map(brief)).toEqual(['9:tool:message'])
    expect(page[0]).toMatchObject({ content: 'note d', toolCallId: 'c4' })
  })
})
