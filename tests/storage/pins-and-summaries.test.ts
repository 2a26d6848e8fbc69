import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SqliteSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { openTempStore } from '../support/session-store'

let store: SqliteSessionStore
let close: () => void

beforeEach(() => {
  ;({ store, close } = openTempStore('cairn-storage-pins-'))
})
afterEach(() => close())

describe('pinned messages and summaries', () => {
  it('pins and unpins a message, and says when there is no such message', () => {
    const s = store.createSession()
    const m = store.appendMessage(s.id, { role: 'user', content: 'keep me' })
    expect(m.pinned).toBe(false)
    expect(store.setMessagePinned(s.id, m.id, true)?.pinned).toBe(true)
    expect(store.listMessages(s.id)[0]?.pinned).toBe(true)
    expect(store.setMessagePinned(s.id, m.id, false)?.pinned).toBe(false)
    expect(store.setMessagePinned(s.id, 'nope', true)).toBeNull()
    const other = store.createSession()
    expect(store.setMessagePinned(other.id, m.id, true)).toBeNull()
  })

  it('keeps which messages a summary covers, and removes only summaries', () => {
    const s = store.createSession()
    for (let i = 1; i <= 4; i++) store.appendMessage(s.id, { role: 'user', content: `m${i}` })
    const summary = store.appendMessage(s.id, {
      role: 'user',
      kind: 'summary',
      content: 'they talked',
      covers: { from: 2, to: 3 },
    })
    expect(summary.covers).toEqual({ from: 2, to: 3 })
    expect(store.listMessages(s.id)[0]?.covers).toBeNull()
    const before = JSON.stringify(store.listMessages(s.id).slice(0, 4))
    const plain = store.listMessages(s.id)[1]!
    expect(store.removeSummary(s.id, plain.id)).toBe(false)
    expect(store.setMessagePinned(s.id, summary.id, true)).toBeNull()
    expect(store.removeSummary(s.id, summary.id)).toBe(true)
    expect(store.removeSummary(s.id, summary.id)).toBe(false)
    const after = store.listMessages(s.id)
    expect(after.map((m) => m.kind)).toEqual(['message', 'message', 'message', 'message'])
    expect(JSON.stringify(after)).toBe(before)
    // the conversation goes on after the last message left
    expect(store.appendMessage(s.id, { role: 'user', content: 'next' }).seq).toBe(5)
  })
})
