import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { INTERRUPTED_RESULT } from '../../src-main/adapters/sqlite/repair'
import {
  createSessionStore,
  SessionNotFoundError,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'

let dir: string
let store: SqliteSessionStore
let sessionId: string

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-storage-repair-'))
  store = createSessionStore(dir)
  sessionId = store.createSession().id
})
afterEach(() => {
  store.close()
  rmSync(dir, { recursive: true, force: true })
})

function call(id: string, name = 'read_note'): { id: string; name: string; arguments: string } {
  return { id, name, arguments: `{"key":"${id}"}` }
}

const shape = (): [string, string | null, string | null][] =>
  store.listMessages(sessionId).map((m) => [m.role, m.toolCallId, m.failureKind])

describe('repairing a session after a crash', () => {
  it('answers the one missing result of the last assistant message, once', () => {
    store.appendMessage(sessionId, { role: 'user', content: 'do two things' })
    store.appendMessage(sessionId, {
      role: 'assistant',
      content: '',
      turnId: 't1',
      toolCalls: [call('c1'), call('c2', 'write_note')],
    })
    store.appendMessage(sessionId, {
      role: 'tool',
      content: 'note a',
      toolCallId: 'c1',
      toolName: 'read_note',
    })
    // simulate a restart: a new connection on the same file
    store.close()
    store = createSessionStore(dir)
    const writes = store.writeCount

    const repaired = store.repairDanglingToolCalls(sessionId)
    expect(repaired).toHaveLength(1)
    expect(repaired[0]).toMatchObject({
      seq: 4,
      role: 'tool',
      kind: 'message',
      status: 'complete',
      failureKind: 'interrupted',
      toolCallId: 'c2',
      toolName: 'write_note',
      turnId: 't1',
      content: INTERRUPTED_RESULT,
    })
    expect(INTERRUPTED_RESULT).toMatch(/^\[interrupted\]/)
    expect(INTERRUPTED_RESULT).toMatch(/may or may not have run/)
    expect(store.writeCount).toBe(writes + 1)
    expect(shape()).toEqual([
      ['user', null, null],
      ['assistant', null, null],
      ['tool', 'c1', null],
      ['tool', 'c2', 'interrupted'],
    ])

    expect(store.repairDanglingToolCalls(sessionId)).toEqual([])
    expect(store.listMessages(sessionId)).toHaveLength(4)
    expect(store.writeCount).toBe(writes + 1)
  })

  it('answers all calls, in order, when none has a result', () => {
    store.appendMessage(sessionId, {
      role: 'assistant',
      content: '',
      toolCalls: [call('a'), call('b'), call('c')],
    })
    expect(store.repairDanglingToolCalls(sessionId).map((m) => m.toolCallId)).toEqual([
      'a',
      'b',
      'c',
    ])
  })

  it('does nothing for a complete history', () => {
    store.appendMessage(sessionId, { role: 'user', content: 'hi' })
    store.appendMessage(sessionId, { role: 'assistant', content: '', toolCalls: [call('c1')] })
    store.appendMessage(sessionId, { role: 'tool', content: 'r', toolCallId: 'c1' })
    store.appendMessage(sessionId, { role: 'assistant', content: 'done' })
    expect(store.repairDanglingToolCalls(sessionId)).toEqual([])
    expect(store.listMessages(sessionId)).toHaveLength(4)
  })

  it('handles servers that reuse call ids in every turn', () => {
    store.appendMessage(sessionId, { role: 'assistant', content: '', toolCalls: [call('call_0')] })
    store.appendMessage(sessionId, { role: 'tool', content: 'r1', toolCallId: 'call_0' })
    store.appendMessage(sessionId, { role: 'assistant', content: '', toolCalls: [call('call_0')] })
    // the second call_0 has no result, although an earlier result carries its id
    expect(store.repairDanglingToolCalls(sessionId).map((m) => [m.seq, m.toolCallId])).toEqual([
      [4, 'call_0'],
    ])
  })

  it('adds nothing where the conversation went on after an unanswered call (no branch is made for it)', () => {
    store.appendMessage(sessionId, { role: 'assistant', content: '', toolCalls: [call('old')] })
    store.appendMessage(sessionId, { role: 'user', content: 'later message' })
    store.appendMessage(sessionId, { role: 'assistant', content: '', toolCalls: [call('new')] })
    const repaired = store.repairDanglingToolCalls(sessionId)
    // only the call at the end of the branch is answered, after it; the request view leaves
    // the other out with its call
    expect(repaired.map((m) => [m.seq, m.parentSeq, m.toolCallId])).toEqual([[4, 3, 'new']])
    expect(store.getSession(sessionId)?.leafSeq).toBe(4)
  })

  it('answers a call interrupted on another branch there, and leaves the open branch where it is', () => {
    store.appendMessage(sessionId, { role: 'user', content: 'q' })
    store.appendMessage(sessionId, { role: 'assistant', content: '', toolCalls: [call('a')] })
    // the user went on from the question instead (an edit)
    store.appendMessage(sessionId, { role: 'user', content: 'q again', parentSeq: null })
    store.appendMessage(sessionId, { role: 'assistant', content: 'fine' })
    const repaired = store.repairDanglingToolCalls(sessionId)
    expect(repaired.map((m) => [m.seq, m.parentSeq, m.toolCallId])).toEqual([[5, 2, 'a']])
    expect(store.getSession(sessionId)?.leafSeq).toBe(4)
  })

  it('ignores notices and summaries, and throws for a missing session', () => {
    store.appendMessage(sessionId, {
      role: 'assistant',
      kind: 'summary',
      content: 'summary',
      toolCalls: [call('s1')],
    })
    expect(store.repairDanglingToolCalls(sessionId)).toEqual([])
    expect(() => store.repairDanglingToolCalls('missing')).toThrow(SessionNotFoundError)
  })
})
