/**
 * The window's view of a tree: `sessions.get` pages the open branch (with the versions
 * along it) and `sessions.openBranch` switches it, on the real store.
 */
import { rmSync } from 'node:fs'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { openTempStore, type TempStore } from '../support/session-store'

let t: TempStore
let id: string
beforeEach(() => {
  t = openTempStore('cairn-storage-branch-page-')
  id = t.store.createSession().id
})
afterEach(() => t.close())

const say = (role: 'user' | 'assistant', content: string, parentSeq?: number | null) =>
  t.store.appendMessage(id, { role, content, ...(parentSeq !== undefined ? { parentSeq } : {}) })

/** q1 a1 q2 a2 q3 a3 (1–6), then an edit of q2 (7, after a1) answered (8) */
function editedInTheMiddle(): void {
  for (let i = 1; i <= 3; i++) {
    say('user', `q${i}`)
    say('assistant', `a${i}`)
  }
  t.store.appendMessage(id, { role: 'user', content: 'q2 edited', parentSeq: 2, supersedes: 3 })
  say('assistant', 'a2 for the edit')
}

const contents = (page: { messages: { content: string }[] }) => page.messages.map((m) => m.content)

describe('the open branch, a page at a time', () => {
  it('holds the branch the edit opened, and the versions at the edit', () => {
    editedInTheMiddle()
    const page = t.store.getBranchPage(id, { limit: 50 })
    expect(contents(page)).toEqual(['q1', 'a1', 'q2 edited', 'a2 for the edit'])
    expect(page.hasMore).toBe(false)
    expect(page.versions).toEqual({ 7: [3, 7] })
    expect(t.store.getSession(id)!.leafSeq).toBe(8)
  })

  it('switching to the earlier version opens the newest conversation that went on from it', () => {
    editedInTheMiddle()
    expect(t.store.openBranchAt(id, 3)!.leafSeq).toBe(6)
    expect(contents(t.store.getBranchPage(id, { limit: 50 }))).toEqual([
      'q1',
      'a1',
      'q2',
      'a2',
      'q3',
      'a3',
    ])
    // a message on the open branch leaves it as it is; nothing stored changed
    expect(t.store.openBranchAt(id, 4)!.leafSeq).toBe(6)
    expect(t.store.listMessages(id)).toHaveLength(8)
    // no such message, or a number that is out of range: null
    expect(t.store.openBranchAt(id, 99)).toBeNull()
    // the next message goes on from the branch that is open
    say('user', 'q4 on the first branch')
    expect(t.store.listMessages(id).at(-1)!.parentSeq).toBe(6)
  })

  it('pages backwards along the branch, not along the seqs of other branches', () => {
    editedInTheMiddle()
    const tail = t.store.getBranchPage(id, { limit: 2 })
    expect(contents(tail)).toEqual(['q2 edited', 'a2 for the edit'])
    expect(tail.hasMore).toBe(true)
    const before = t.store.getBranchPage(id, { limit: 10, beforeSeq: 7 })
    // q2, a2, q3 and a3 have smaller seqs than 7 but are on the other branch
    expect(contents(before)).toEqual(['q1', 'a1'])
    expect(before.hasMore).toBe(false)
  })

  it('the open branch is kept across a restart of the store', () => {
    editedInTheMiddle()
    t.store.openBranchAt(id, 3)
    t.store.close()
    const store = createSessionStore(t.dir)
    t = {
      ...t,
      store,
      close: () => {
        store.close()
        rmSync(t.dir, { recursive: true, force: true })
      },
    }
    expect(store.getSession(id)!.leafSeq).toBe(6)
    expect(contents(store.getBranchPage(id, { limit: 50 })).at(-1)).toBe('a3')
  })
})

describe('Branch into new chat', () => {
  it('copies the branch up to a message into a new session that links back', () => {
    editedInTheMiddle()
    const fork = t.store.forkSession(id, 4)
    expect(fork.title).toBe('q1 · branch at 4')
    expect(fork.origin).toMatchObject({ kind: 'branch', sessionId: id, messageSeq: 4 })
    const copied = t.store.listMessages(fork.id)
    expect(copied.map((m) => [m.seq, m.parentSeq, m.content])).toEqual([
      [1, null, 'q1'],
      [2, 1, 'a1'],
      [3, 2, 'q2'],
      [4, 3, 'a2'],
    ])
    expect(fork.leafSeq).toBe(4)
    expect(t.store.listMessages(id)).toHaveLength(8)
  })
})
