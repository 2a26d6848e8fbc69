import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { once } from 'node:events'
import { Worker } from 'node:worker_threads'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'

let dir: string
const stores: SqliteSessionStore[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-storage-concurrency-'))
})
afterEach(() => {
  for (const s of stores.splice(0)) s.close()
  rmSync(dir, { recursive: true, force: true })
})

function open(): SqliteSessionStore {
  const s = createSessionStore(dir)
  stores.push(s)
  return s
}

/**
 * Another connection, on another thread: takes the write lock and holds it until told to
 * let go (a shared flag), then holds it `holdMs` more, notes the time and commits.
 */
const HOLDER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.module)
const db = new Database(workerData.file, { timeout: 5000 })
db.exec('BEGIN IMMEDIATE')
db.prepare('UPDATE sessions SET title = ? WHERE id = ?').run('renamed elsewhere', workerData.sessionId)
parentPort.postMessage('locked')
const flag = new Int32Array(workerData.flag)
Atomics.wait(flag, 0, 0, 30000)
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, workerData.holdMs)
const releasing = Date.now()
db.exec('COMMIT')
db.close()
parentPort.postMessage('committed@' + releasing)
`

describe('two connections on one file', () => {
  it('a writer waits (busy timeout) for another connection’s write lock instead of failing; reads do not wait', async () => {
    const store = open()
    const session = store.createSession({ title: 'before' })
    const holdMs = 300
    const flag = new SharedArrayBuffer(4)
    const worker = new Worker(HOLDER, {
      eval: true,
      workerData: {
        module: createRequire(import.meta.url).resolve('better-sqlite3'),
        file: join(dir, 'cairn.db'),
        sessionId: session.id,
        holdMs,
        flag,
      },
    })
    const messages: string[] = []
    worker.on('message', (m: string) => messages.push(m))
    const exited = once(worker, 'exit')
    while (!messages.includes('locked')) await new Promise((r) => setTimeout(r, 5))

    // WAL: a read while the other connection holds the write lock does not wait for it (the
    // lock is held until we let go, so a waiting read would fail after the busy timeout),
    // and sees the last committed state
    expect(store.getSession(session.id)?.title).toBe('before')

    // let go; the write below waits for the commit instead of failing
    Atomics.store(new Int32Array(flag), 0, 1)
    Atomics.notify(new Int32Array(flag), 0)
    const saved = store.appendMessage(session.id, { role: 'user', content: 'waited for the lock' })
    const appended = Date.now()
    expect(saved.seq).toBe(1)
    await exited
    expect(messages[0]).toBe('locked')
    const releasing = Number(messages[1]?.replace('committed@', ''))
    expect(appended).toBeGreaterThanOrEqual(releasing)
    expect(store.getSession(session.id)).toMatchObject({
      title: 'renamed elsewhere',
      messageCount: 1,
    })
  })

  it('two stores append to one session in turn: sequences stay unique and each sees the other', () => {
    const a = open()
    const b = open()
    const s = a.createSession()
    for (let i = 0; i < 10; i++)
      (i % 2 === 0 ? a : b).appendMessage(s.id, { role: 'user', content: `m${i}` })
    expect(a.listMessages(s.id).map((m) => [m.seq, m.content])).toEqual(
      Array.from({ length: 10 }, (_, i) => [i + 1, `m${i}`]),
    )
    expect(b.search('m7', { order: 'newest' })).toHaveLength(1)
    expect(b.getSession(s.id)?.title).toBe('m0')
  })

  it('a reader in a transaction keeps its snapshot while the other connection writes', () => {
    const a = open()
    const b = open()
    const s = a.createSession()
    a.appendMessage(s.id, { role: 'user', content: 'one' })
    b.db.exec('BEGIN')
    expect(b.listMessages(s.id)).toHaveLength(1)
    a.appendMessage(s.id, { role: 'assistant', content: 'two' }) // not blocked by the reader
    expect(b.listMessages(s.id)).toHaveLength(1)
    b.db.exec('COMMIT')
    expect(b.listMessages(s.id)).toHaveLength(2)
  })
})
