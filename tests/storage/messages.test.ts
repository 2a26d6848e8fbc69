import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { NewMessage } from '../../src-preload/contract/dto'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { openTempStore } from '../support/session-store'

let store: SqliteSessionStore
let clock: number
let close: () => void

beforeEach(() => {
  clock = 5_000
  ;({ store, close } = openTempStore('cairn-storage-messages-', { now: () => clock }))
})
afterEach(() => close())

describe('messages', () => {
  it('numbers messages 1, 2, 3… per session', () => {
    const a = store.createSession()
    const b = store.createSession()
    store.appendMessage(a.id, { role: 'user', content: 'a1' })
    store.appendMessage(b.id, { role: 'user', content: 'b1' })
    store.appendMessage(a.id, { role: 'assistant', content: 'a2' })
    const a3 = store.appendMessage(a.id, { role: 'user', content: 'a3' })
    expect(a3.seq).toBe(3)
    expect(store.listMessages(a.id).map((m) => [m.seq, m.content])).toEqual([
      [1, 'a1'],
      [2, 'a2'],
      [3, 'a3'],
    ])
    expect(store.listMessages(b.id).map((m) => m.seq)).toEqual([1])
    // (session, seq) is unique in the schema itself
    expect(() =>
      store.db
        .prepare(
          `INSERT INTO messages (id, session_id, seq, kind, role, content, status, created_at)
           VALUES ('dup', ?, 3, 'message', 'user', 'x', 'complete', 0)`,
        )
        .run(a.id),
    ).toThrow(/UNIQUE/)
  })

  it('stores every field and gives back what listMessages gives back', () => {
    const s = store.createSession()
    clock = 42_000
    const full: NewMessage = {
      role: 'assistant',
      content: 'Here you go.',
      turnId: 'turn-1',
      kind: 'message',
      parts: [
        { type: 'text', text: 'Here you go.' },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
      ],
      reasoning: 'thinking…',
      providerExtras: { reasoning_details: [{ type: 'reasoning.encrypted', data: 'abc' }] },
      toolCalls: [{ id: 'c1', name: 'read_file', arguments: '{"path":"a.txt"}' }],
      provider: 'http://localhost:11434/v1',
      model: 'qwen3',
      servedModel: 'qwen3:8b-q4_K_M',
      status: 'stopped',
      usage: { inputTokens: 120, outputTokens: 30, estimated: true },
      reasoningMs: 850,
      pinned: true,
    }
    const saved = store.appendMessage(s.id, full)
    expect(saved).toEqual({
      ...full,
      id: saved.id,
      sessionId: s.id,
      seq: 1,
      parentSeq: null,
      toolCallId: null,
      toolName: null,
      failureKind: null,
      isError: false,
      supersedes: null,
      durationMs: null,
      decidedBy: null,
      covers: null,
      createdAt: 42_000,
    })
    expect(saved.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(store.listMessages(s.id)).toEqual([saved])

    const tool = store.appendMessage(s.id, {
      role: 'tool',
      content: 'denied by the user',
      toolCallId: 'c1',
      toolName: 'read_file',
      failureKind: 'denied',
      decidedBy: 'user',
    })
    expect(tool).toMatchObject({
      parentSeq: 1,
      decidedBy: 'user',
      durationMs: null,
      reasoningMs: null,
      kind: 'message',
      status: 'complete',
      toolCallId: 'c1',
      toolName: 'read_file',
      failureKind: 'denied',
      parts: null,
      reasoning: null,
      providerExtras: null,
      toolCalls: null,
      usage: null,
      turnId: null,
      provider: null,
      model: null,
    })
    const ran = store.appendMessage(s.id, {
      role: 'tool',
      content: 'a.txt',
      toolCallId: 'c2',
      durationMs: 37,
      decidedBy: 'rule',
    })
    const again = store.appendMessage(s.id, { role: 'user', content: 'again', supersedes: 1 })
    expect(store.listMessages(s.id).slice(-2)).toEqual([ran, again])
    expect([ran.durationMs, ran.decidedBy, again.supersedes]).toEqual([37, 'rule', 1])
  })

  it('adds message usage to the session totals and moves updatedAt', () => {
    const s = store.createSession()
    clock = 9_000
    store.appendMessage(s.id, { role: 'user', content: 'hi' })
    store.appendMessage(s.id, {
      role: 'assistant',
      content: 'hello',
      usage: { inputTokens: 100, outputTokens: 20, estimated: false },
    })
    clock = 10_000
    store.appendMessage(s.id, {
      role: 'assistant',
      content: 'more',
      usage: { inputTokens: 150, outputTokens: 7, estimated: true },
    })
    expect(store.getSession(s.id)).toMatchObject({
      usage: { inputTokens: 250, outputTokens: 27 },
      updatedAt: 10_000,
      messageCount: 3,
    })
  })

  it('counts one write per appended message and none for reads', () => {
    const s = store.createSession()
    const before = store.writeCount
    for (let i = 0; i < 5; i++) store.appendMessage(s.id, { role: 'user', content: `m${i}` })
    expect(store.writeCount - before).toBe(5)
    store.listMessages(s.id)
    store.getMessages(s.id, { limit: 2 })
    store.listSessions({ limit: 5 })
    store.search('m1', { order: 'ranked' })
    store.exportSession(s.id, 'md')
    expect(store.repairDanglingToolCalls(s.id)).toEqual([])
    expect(store.writeCount - before).toBe(5)
    store.renameSession(s.id, 'x')
    store.setTodos(s.id, [])
    expect(store.writeCount - before).toBe(7)
  })

  it('writes a message atomically: when its index row fails, nothing of it remains', () => {
    const s = store.createSession()
    store.appendMessage(s.id, { role: 'assistant', content: 'first, not from the user' })
    const before = store.getSession(s.id)!
    const writes = store.writeCount
    // Plant an index row where the next message's index row must go: the message row and
    // the session update succeed, then the FTS insert fails on its rowid.
    const nextPk = Number(store.db.prepare('SELECT max(pk) + 1 FROM messages').pluck().get())
    store.db
      .prepare(`INSERT INTO messages_fts (rowid, text, tool_args) VALUES (?, 'planted', '')`)
      .run(nextPk)
    clock = 99_000
    expect(() =>
      store.appendMessage(s.id, {
        role: 'user',
        content: 'Zanzibar itinerary',
        usage: { inputTokens: 5, outputTokens: 5, estimated: false },
      }),
    ).toThrow(/constraint/i)
    expect(store.listMessages(s.id).map((m) => m.content)).toEqual(['first, not from the user'])
    expect(store.getSession(s.id)).toEqual(before) // no title, usage, updatedAt or count change
    expect(store.writeCount).toBe(writes)
    expect(store.search('zanzibar', { order: 'newest' })).toEqual([])
    // with the obstacle gone the same message goes in, with the next seq
    store.db.prepare('DELETE FROM messages_fts WHERE rowid = ?').run(nextPk)
    const saved = store.appendMessage(s.id, { role: 'user', content: 'Zanzibar itinerary' })
    expect(saved.seq).toBe(2)
    expect(store.getSession(s.id)?.title).toBe('Zanzibar itinerary')
  })

  it('pages through a session in ascending order', () => {
    const s = store.createSession()
    for (let i = 1; i <= 10; i++) store.appendMessage(s.id, { role: 'user', content: `m${i}` })
    const seqs = (ms: { seq: number }[]): number[] => ms.map((m) => m.seq)
    expect(seqs(store.getMessages(s.id, { limit: 3 }))).toEqual([8, 9, 10])
    expect(seqs(store.getMessages(s.id, { beforeSeq: 8, limit: 3 }))).toEqual([5, 6, 7])
    expect(seqs(store.getMessages(s.id, { beforeSeq: 3, limit: 5 }))).toEqual([1, 2])
    expect(seqs(store.getMessages(s.id, { afterSeq: 0, limit: 4 }))).toEqual([1, 2, 3, 4])
    expect(seqs(store.getMessages(s.id, { afterSeq: 8, limit: 4 }))).toEqual([9, 10])
    expect(seqs(store.getMessages(s.id, { afterSeq: 2, beforeSeq: 6, limit: 10 }))).toEqual([
      3, 4, 5,
    ])
    expect(store.getMessages('missing', { limit: 3 })).toEqual([])
  })
})

describe('tool results that report an error', () => {
  it('keep that across a reopen, and synthetic results count as errors', () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-iserror-'))
    try {
      const store = createSessionStore(dir)
      const s = store.createSession()
      store.appendMessage(s.id, {
        role: 'tool',
        content: 'Error: boom',
        toolCallId: 'a',
        isError: true,
      })
      store.appendMessage(s.id, {
        role: 'tool',
        content: 'denied',
        toolCallId: 'b',
        failureKind: 'denied',
      })
      store.appendMessage(s.id, { role: 'tool', content: 'fine', toolCallId: 'c' })
      store.close()
      const again = createSessionStore(dir)
      expect(again.listMessages(s.id).map((m) => m.isError)).toEqual([true, true, false])
      again.close()
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
