/**
 * The window's host (the desktop app and browser mode share it) on a database that opened
 * but is damaged further in: a route that meets the damage answers `database_damaged` with
 * what to do, and `app.replaceDamagedDatabase` moves the file aside and starts a new one —
 * only once a query found damage, and only with the user's consent.
 */
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { startWebServer } from '../../src-main/web/server'
import { ipcBridge, unwrap, wsBridge, type TestBridge } from '../support/bridges'
import { useTempDirs } from '../settings/temp-dirs'
import { damagePages, rawQueryError } from './late-damage'

const tempDir = useTempDirs()
let host: AppHost | null = null
let b: TestBridge | null = null
afterEach(async () => {
  await b?.close()
  await host?.shutdown()
  host = null
  b = null
})

/** a data directory holding one session with a few messages; its messages' pages damaged */
function damagedDataDir(): { dir: string; file: string; sessionId: string } {
  const dir = tempDir()
  const store = createSessionStore(dir)
  const sessionId = store.createSession({ title: 'kept safe' }).id
  for (let i = 0; i < 20; i++)
    store.appendMessage(sessionId, {
      role: i % 2 ? 'assistant' : 'user',
      content: `m${i} `.repeat(80),
    })
  store.close()
  const file = path.join(dir, 'cairn.db')
  damagePages(file, 'messages')
  expect(rawQueryError(file, 'SELECT content FROM messages')).toMatch(/^SQLITE_CORRUPT/)
  return { dir, file, sessionId }
}

async function open(
  dir: string,
  extra: Partial<Parameters<typeof createAppHost>[0]> = {},
): Promise<TestBridge> {
  host = await createAppHost({
    dataDir: dir,
    hostKind: 'web',
    version: 't',
    env: { CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' },
    ...extra,
  })
  b = ipcBridge(host)
  return b
}

const asides = (dir: string): string[] =>
  fs.readdirSync(dir).filter((f) => f.startsWith('cairn.db.damaged-') && !/-(wal|shm)$/.test(f))

describe('a route on a database damaged after it opened', () => {
  it('browser mode answers over its WebSocket the same way', async () => {
    const { dir, sessionId } = damagedDataDir()
    host = await createAppHost({ dataDir: dir, hostKind: 'web', version: 't', env: {} })
    const server = await startWebServer({
      host,
      staticDir: path.join(process.cwd(), 'out', 'renderer'),
      port: 0,
    })
    try {
      const ws = await wsBridge(server.url)
      try {
        const got = await ws.request('sessions.get', { id: sessionId })
        expect(got).toMatchObject({ ok: false, error: { code: 'database_damaged' } })
        const { movedTo } = unwrap(await ws.request('app.replaceDamagedDatabase', {}))
        expect(asides(dir)).toEqual([path.basename(movedTo!)])
        expect(unwrap(await ws.request('sessions.list', {})).total).toBe(0)
      } finally {
        await ws.close()
      }
    } finally {
      await server.close()
    }
  })

  it('answers database_damaged with what to do; a new database only once agreed', async () => {
    const { dir, file, sessionId } = damagedDataDir()
    const bridge = await open(dir)
    const got = await bridge.request('sessions.get', { id: sessionId })
    expect(got.ok).toBe(false)
    if (got.ok) return
    expect(got.error.code).toBe('database_damaged')
    expect(got.error.message).toMatch(/cannot be used: part of it is damaged .*SQLITE_CORRUPT/)
    expect(got.error.message).toMatch(/copy it aside .*Start a new database/)
    expect(got.error.message).not.toMatch(/\n\s+at /)
    expect(asides(dir)).toEqual([])

    // browser mode: the page asked; the host moves it aside and opens a new one
    const { movedTo } = unwrap(await bridge.request('app.replaceDamagedDatabase', {}))
    expect(movedTo).not.toBeNull()
    expect(path.dirname(movedTo!)).toBe(dir)
    expect(fs.existsSync(movedTo!)).toBe(true)
    expect(rawQueryError(movedTo!, 'SELECT content FROM messages')).toMatch(/^SQLITE_CORRUPT/)
    expect(rawQueryError(file, 'SELECT content FROM messages')).toBeNull()
    // the same connection goes on, on the new database
    expect(unwrap(await bridge.request('sessions.list', {})).sessions).toEqual([])
    const gone = await bridge.request('sessions.get', { id: sessionId })
    expect(gone).toMatchObject({ ok: false, error: { code: 'not_found' } })
    expect(bridge.events.some((e) => e.event === 'sessions.changed')).toBe(true)
  })

  it('a sound database is never replaced', async () => {
    const dir = tempDir()
    const store = createSessionStore(dir)
    const id = store.createSession({ title: 'sound' }).id
    store.close()
    const bridge = await open(dir)
    const r = await bridge.request('app.replaceDamagedDatabase', {})
    expect(r).toMatchObject({ ok: false, error: { code: 'conflict' } })
    expect(asides(dir)).toEqual([])
    expect(unwrap(await bridge.request('sessions.get', { id })).session.title).toBe('sound')
  })

  it('damage no store query met (another table, another reader) is found by SQLite’s own check', async () => {
    const { dir } = damagedDataDir()
    const bridge = await open(dir)
    const { movedTo } = unwrap(await bridge.request('app.replaceDamagedDatabase', {}))
    expect(asides(dir)).toEqual([path.basename(movedTo!)])
  })

  it('the desktop app asks in its own dialog: declined, nothing is moved', async () => {
    const { dir, sessionId } = damagedDataDir()
    const asked: string[] = []
    let answer = false
    const bridge = await open(dir, {
      hostKind: 'electron',
      confirmNewDatabase: async (damage) => {
        asked.push(damage)
        return answer
      },
    })
    expect((await bridge.request('sessions.get', { id: sessionId })).ok).toBe(false)
    expect(unwrap(await bridge.request('app.replaceDamagedDatabase', {}))).toEqual({
      movedTo: null,
    })
    expect(asked).toHaveLength(1)
    expect(asked[0]).toMatch(/part of it is damaged/)
    expect(asides(dir)).toEqual([])

    answer = true
    const { movedTo } = unwrap(await bridge.request('app.replaceDamagedDatabase', {}))
    expect(asides(dir)).toEqual([path.basename(movedTo!)])
    expect(unwrap(await bridge.request('sessions.list', {})).total).toBe(0)
  })
})
