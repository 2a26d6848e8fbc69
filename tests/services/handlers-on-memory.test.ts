/**
 * The handlers need no SQLite: the whole engine (`startEngine`, the same assembly the
 * hosts use) runs on the in-memory ports of `tests/support/memory-repositories.ts`, with
 * the real router, IPC bridge, turn manager and model client against the scripted server.
 * Nothing is written where a database would be.
 */
import { ViewDocuments } from '../../src-main/services/host/view-documents'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createRouter } from '../../src-main/ipc/router'
import { startEngine, type Engine } from '../../src-main/services/host/app-host'
import { EventHub } from '../../src-main/services/host/event-hub'
import { ipcBridge, unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { NO_LOCAL_SERVERS } from '../support/host'
import { memoryServices, type MemoryServices } from '../support/memory-repositories'
import { startScriptedServer, textReply, type ScriptedServer } from '../support/openai-server'

describe('the routes on in-memory repositories', () => {
  let dir: string
  let server: ScriptedServer
  let app: MemoryServices
  let engine: Engine
  let b: TestBridge

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-memory-'))
    server = await startScriptedServer({ models: ['m'] })
    // the directory holds only what the tool runtime keeps (its process registry)
    app = memoryServices({ dataDir: dir, workspace: join(dir, 'workspace') })
    const hub = new EventHub()
    engine = await startEngine(
      app,
      { hostKind: 'web', version: 't' },
      {
        env: { ...NO_LOCAL_SERVERS, CAIRN_BASE_URL: server.baseURL, CAIRN_MODEL: 'm' },
        hub,
        warn: () => undefined,
      },
    )
    b = ipcBridge({
      router: createRouter(engine.handlers),
      hub,
      views: new ViewDocuments(),
      offerImport: (file, name) => engine.imports.offer(file, { name, temporary: true }),
      shutdown: () => engine.stop(),
    })
  })
  afterAll(async () => {
    await b.close()
    await engine.stop()
    await server.close()
    rmSync(dir, { recursive: true, force: true })
  })

  const ask = async (text: string, sessionId?: string) => {
    const sent = unwrap(await b.request('chat.send', { text, ...(sessionId ? { sessionId } : {}) }))
    await waitForEvent(b, 'agent', (e) => e.turnId === sent.turnId && e.type === 'turn_end')
    return sent.sessionId
  }

  it('runs a turn: the session, its messages and its turn log are in the memory repositories', async () => {
    server.enqueue(textReply('Granite is an igneous rock.'))
    const id = await ask('tell me about granite')
    expect(app.store.listMessages(id).map((m) => [m.role, m.content])).toEqual([
      ['user', 'tell me about granite'],
      ['assistant', 'Granite is an igneous rock.'],
    ])
    const got = unwrap(await b.request('sessions.get', { id }))
    expect(got.session).toMatchObject({
      title: 'tell me about granite',
      model: 'm',
      assistant: { id: 'default', name: 'Default' },
    })
    const logs = unwrap(await b.request('logs.turns', { sessionId: id }))
    expect(logs.total).toBe(1)
    expect(logs.items[0]!.request).toMatchObject({ model: 'm' })
    // the lease was given back: the session takes the next turn
    expect(app.store.leases.isHeld(id)).toBe(false)
    // no database, no settings file: only the tool runtime's registry may be there
    expect(existsSync(join(dir, 'cairn.db'))).toBe(false)
    expect(readdirSync(dir).filter((f) => f !== 'mcp-processes.json')).toEqual([])
  })

  it('lists, searches, renames, pins, exports and deletes sessions', async () => {
    server.enqueue(textReply('Basalt is volcanic.'))
    const id = await ask('and basalt?')
    const list = unwrap(await b.request('sessions.list', {}))
    expect(list.sessions[0]!.id).toBe(id)

    const hits = unwrap(await b.request('sessions.search', { query: 'VOLCANIC' })).hits
    expect(hits).toMatchObject([{ sessionId: id, role: 'assistant' }])
    expect(hits[0]!.snippet).toBe('Basalt is \u0002volcanic\u0003.')

    expect(unwrap(await b.request('sessions.rename', { id, title: '  Rocks ' })).title).toBe(
      'Rocks',
    )
    unwrap(await b.request('sessions.pin', { id, pinned: true }))
    expect(app.store.getSession(id)!.pinned).toBe(true)

    const md = unwrap(await b.request('sessions.export', { id, format: 'md' }))
    expect(md.filename).toBe('rocks.md')
    expect(md.content).toContain('Basalt is volcanic.')

    expect(unwrap(await b.request('sessions.delete', { id }))).toEqual({ deleted: true })
    expect(app.store.getSession(id)).toBeNull()
    expect(app.turnLogs.bySession.has(id)).toBe(false)
    const gone = await b.request('sessions.get', { id })
    expect(gone).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })

  it('pins a message, measures the context window and undoes a compaction', async () => {
    server.enqueue(textReply('Quartz is hard.'))
    const id = await ask('quartz?')
    const [question] = app.store.listMessages(id)
    const pinned = unwrap(
      await b.request('messages.pin', { sessionId: id, messageId: question!.id, pinned: true }),
    )
    expect(pinned.pinned).toBe(true)
    const size = unwrap(await b.request('sessions.context', { id }))
    expect(size.estimatedTokens).toBeGreaterThan(0)

    const summary = app.store.appendMessage(id, {
      role: 'assistant',
      kind: 'summary',
      content: 'A question about quartz.',
      covers: { from: 1, to: 2 },
    })
    expect(
      unwrap(await b.request('sessions.undoCompaction', { id, summaryId: summary.id })),
    ).toEqual({ removed: true })
    expect(app.store.listMessages(id).some((m) => m.kind === 'summary')).toBe(false)
  })

  it('creates assistants, refuses a taken name, and switches a session to one', async () => {
    server.enqueue(textReply('Yes.'))
    const id = await ask('hello')
    const draft = {
      name: 'Geologist',
      tools: {
        builtin: { mode: 'none' as const, names: [] },
        mcp: { servers: {}, others: 'none' as const },
      },
      limits: {},
    }
    const made = unwrap(await b.request('assistants.create', { assistant: draft }))
    const again = await b.request('assistants.create', {
      assistant: { ...draft, name: ' geologist ' },
    })
    expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } })
    const switched = unwrap(await b.request('sessions.setAssistant', { id, assistantId: made.id }))
    expect(switched.assistant).toMatchObject({ id: made.id, name: 'Geologist' })
    expect(app.assistants.forSession(id)).toMatchObject({ live: true, assistant: { id: made.id } })
  })

  it('refuses a second turn while the session is leased', async () => {
    server.enqueue(textReply('First.'))
    const id = await ask('first')
    const held = app.store.leases.acquire(id, 'cli')
    if (!held.ok) throw new Error('the lease should be free')
    try {
      const refused = await b.request('chat.send', { sessionId: id, text: 'second' })
      expect(refused).toMatchObject({
        ok: false,
        error: { code: 'busy', message: expect.stringContaining('already running') },
      })
    } finally {
      held.lease.release()
    }
  })
})
