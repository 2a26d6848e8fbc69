/**
 * One contract suite, run against both transports: the Electron-style router over IPC and
 * the browser-mode host over a real WebSocket. The real core and services run behind
 * them, with a scripted OpenAI-compatible server as the model.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import { createAppHost, type AppHost } from '../../src-main/services/host/app-host'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { historyRouteTests } from './contract-history'
import { fixture } from '../support/mcp'
import {
  startScriptedServer,
  textReply,
  toolCallsReply,
  type ScriptedServer,
  slowText,
} from '../support/openai-server'

export interface SuiteEnv {
  host: AppHost
  server: ScriptedServer
  dir: string
}

const agentEvents = (b: TestBridge, turnId: string): SequencedAgentEvent[] =>
  b.events.flatMap((e) => (e.event === 'agent' && e.payload.turnId === turnId ? [e.payload] : []))

export function contractSuite(
  name: string,
  hostKind: 'electron' | 'web',
  connect: (
    env: SuiteEnv,
  ) => Promise<{ bridge: () => Promise<TestBridge>; close: () => Promise<void> }>,
): void {
  describe(`the contract over ${name}`, () => {
    let env: SuiteEnv
    let transport: Awaited<ReturnType<typeof connect>>
    let b: TestBridge
    let workspace: string

    beforeAll(async () => {
      const server = await startScriptedServer({ models: ['m', 'm2'] })
      const dir = mkdtempSync(join(tmpdir(), `cairn-contract-${hostKind}-`))
      workspace = join(dir, 'workspace')
      mkdirSync(workspace)
      const host = await createAppHost({
        dataDir: join(dir, 'data'),
        hostKind,
        version: '9.9.9-test',
        env: {
          CAIRN_BASE_URL: server.baseURL,
          CAIRN_MODEL: 'm',
          CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
        },
        orphanApprovalMs: 400,
      })
      env = { host, server, dir }
      transport = await connect(env)
      b = await transport.bridge()
    })
    afterAll(async () => {
      await b?.close()
      await transport?.close()
      await env?.host.shutdown()
      await env?.server.close()
      rmSync(env.dir, { recursive: true, force: true })
    })

    it('app.info names the host', async () => {
      const info = unwrap(await b.request('app.info', {}))
      expect(info).toMatchObject({ name: 'Cairn', version: '9.9.9-test', host: hostKind })
    })

    it('rejects an unknown route and invalid input with a clear error, never throwing', async () => {
      const unknown = await b.request('nope.nothing' as 'app.info', {})
      expect(unknown).toEqual({
        ok: false,
        error: { code: 'bad_request', message: expect.stringContaining('no route') },
      })
      const invalid = await b.request('chat.send', { text: 42 } as unknown as { text: string })
      expect(invalid.ok).toBe(false)
      if (!invalid.ok) {
        expect(invalid.error.code).toBe('bad_request')
        expect(invalid.error.message).toMatch(/text/)
      }
      const extra = await b.request('sessions.pin', { id: 'x', pinned: true, admin: true } as never)
      expect(extra.ok).toBe(false)
      const missing = await b.request('sessions.get', { id: 'no-such-session' })
      expect(missing).toEqual({
        ok: false,
        error: { code: 'not_found', message: expect.stringContaining('no-such-session') },
      })
    })

    it('chat.send streams a turn as events and stores it', async () => {
      env.server.enqueue(textReply('Stones mark the path.', { chunkSize: 2 }))
      const { sessionId, turnId } = unwrap(
        await b.request('chat.send', { text: 'what is a cairn?', workspace }),
      )
      const end = await waitForEvent(
        b,
        'agent',
        (e) => e.turnId === turnId && e.type === 'turn_end',
      )
      expect(end).toMatchObject({ reason: 'completed', sessionId })
      const events = agentEvents(b, turnId)
      expect(events.map((e) => e.seq)).toEqual(events.map((_, i) => i))
      expect(
        events
          .filter((e) => e.type === 'text_delta')
          .map((e) => (e.type === 'text_delta' ? e.text : ''))
          .join(''),
      ).toBe('Stones mark the path.')
      const got = unwrap(await b.request('sessions.get', { id: sessionId }))
      expect(got.messages.map((m) => [m.role, m.content])).toEqual([
        ['user', 'what is a cairn?'],
        ['assistant', 'Stones mark the path.'],
      ])
      expect(got.session.title).toBe('what is a cairn?')
      await waitForEvent(b, 'sessions.changed', (p) => p.sessionId === sessionId)
    })

    it('coalesces a fast stream into at most about one text message per 16 ms', async () => {
      env.server.enqueue(textReply('x'.repeat(4000), { chunkSize: 1 }))
      const started = Date.now()
      const { turnId } = unwrap(await b.request('chat.send', { text: 'fast', workspace }))
      await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
      const elapsed = Date.now() - started
      const deltas = agentEvents(b, turnId).filter((e) => e.type === 'text_delta')
      expect(deltas.map((d) => (d.type === 'text_delta' ? d.text : '')).join('')).toBe(
        'x'.repeat(4000),
      )
      expect(deltas.length).toBeLessThanOrEqual(Math.ceil(elapsed / 16) + 2)
      expect(deltas.length).toBeLessThan(4000 / 4)
    })

    it('asks for approval, and approvals.respond lets the tool run', async () => {
      env.server.enqueue(
        toolCallsReply([{ id: 'ls1', name: 'list_directory', arguments: '{}' }]),
        textReply('Listed.'),
      )
      const { turnId } = unwrap(await b.request('chat.send', { text: 'list files', workspace }))
      const ask = await waitForEvent(
        b,
        'agent',
        (e) => e.turnId === turnId && e.type === 'permission_request',
      )
      if (ask.type !== 'permission_request') throw new Error('unreachable')
      expect(ask).toMatchObject({ name: 'list_directory', server: 'cairn', trusted: true })
      expect(
        unwrap(
          await b.request('approvals.respond', {
            requestId: ask.requestId,
            decision: 'allow_once',
          }),
        ),
      ).toEqual({ accepted: true })
      // a second answer (another window) is not accepted
      expect(
        unwrap(
          await b.request('approvals.respond', { requestId: ask.requestId, decision: 'deny' }),
        ),
      ).toEqual({ accepted: false })
      const result = await waitForEvent(
        b,
        'agent',
        (e) => e.turnId === turnId && e.type === 'tool_result',
      )
      expect(result).toMatchObject({ ok: true, synthetic: false })
      await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    })

    it("chat.attach gives a running turn's events from the start and the pending approvals", async () => {
      env.server.enqueue(
        toolCallsReply([{ id: 'ls2', name: 'list_directory', arguments: '{}' }]),
        textReply('ok'),
      )
      const { sessionId, turnId } = unwrap(
        await b.request('chat.send', { text: 'list again', workspace }),
      )
      const ask = await waitForEvent(
        b,
        'agent',
        (e) => e.turnId === turnId && e.type === 'permission_request',
      )
      const other = await transport.bridge() // a reloaded renderer, or a second window
      try {
        const attached = unwrap(await other.request('chat.attach', { sessionId }))
        expect(attached.turn?.turnId).toBe(turnId)
        expect(attached.turn?.events[0]).toMatchObject({ type: 'turn_start', seq: 0 })
        expect(attached.turn?.events.map((e) => e.seq)).toEqual(
          attached.turn?.events.map((_, i) => i),
        )
        expect(attached.pendingApprovals.map((p) => p.requestId)).toEqual([
          ask.type === 'permission_request' ? ask.requestId : '',
        ])
        if (ask.type !== 'permission_request') throw new Error('unreachable')
        unwrap(
          await other.request('approvals.respond', {
            requestId: ask.requestId,
            decision: 'deny',
            reason: 'not now',
          }),
        )
        const decision = await waitForEvent(
          b,
          'agent',
          (e) => e.turnId === turnId && e.type === 'permission_decision',
        )
        expect(decision).toMatchObject({ decision: 'deny', reason: 'not now', by: 'user' })
        await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
        expect(unwrap(await other.request('chat.attach', { sessionId }))).toEqual({
          turn: null,
          pendingApprovals: [],
          pendingElicitations: [],
        })
      } finally {
        await other.close()
      }
    })

    it('chat.stop ends a long answer, keeps the partial text, and the next turn works', async () => {
      env.server.enqueue(slowText(300, 10))
      const { sessionId, turnId } = unwrap(
        await b.request('chat.send', { text: 'long story', workspace }),
      )
      await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'text_delta')
      expect(unwrap(await b.request('chat.stop', { turnId }))).toEqual({ stopped: true })
      const end = await waitForEvent(
        b,
        'agent',
        (e) => e.turnId === turnId && e.type === 'turn_end',
      )
      expect(end).toMatchObject({ reason: 'aborted' })
      const last = unwrap(await b.request('sessions.get', { id: sessionId })).messages.at(-1)
      expect(last).toMatchObject({ role: 'assistant', status: 'stopped' })
      expect(unwrap(await b.request('chat.stop', { turnId }))).toEqual({ stopped: false })
      env.server.enqueue(textReply('Short, then.'))
      const next = unwrap(await b.request('chat.send', { sessionId, text: 'shorter', workspace }))
      const nextEnd = await waitForEvent(
        b,
        'agent',
        (e) => e.turnId === next.turnId && e.type === 'turn_end',
      )
      expect(nextEnd).toMatchObject({ reason: 'completed' })
    })

    it('refuses a second turn in a session that is running one', async () => {
      env.server.enqueue(slowText(100, 10))
      const { sessionId, turnId } = unwrap(
        await b.request('chat.send', { text: 'busy', workspace }),
      )
      await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'text_delta')
      const again = await b.request('chat.send', { sessionId, text: 'and this?' })
      expect(again).toMatchObject({ ok: false, error: { code: 'conflict' } })
      await b.request('chat.stop', { turnId })
      await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    })

    it('denies a pending approval when no renderer has been attached for a while', async () => {
      env.server.enqueue(
        toolCallsReply([{ id: 'ls3', name: 'list_directory', arguments: '{}' }]),
        textReply('ok'),
      )
      const lonely = await transport.bridge()
      await b.close() // the only other renderer: the window is closed
      const { turnId } = unwrap(await lonely.request('chat.send', { text: 'anyone?', workspace }))
      await waitForEvent(
        lonely,
        'agent',
        (e) => e.turnId === turnId && e.type === 'permission_request',
      )
      await lonely.close()
      const watcher = await new Promise<TestBridge>((resolve) =>
        setTimeout(() => void transport.bridge().then(resolve), 900),
      )
      b = watcher
      const events = await waitForTurnEnd(watcher, turnId)
      expect(events).toBe('denied-by-orphan')
    })

    it('settings.get never returns an API key', async () => {
      const secret = 'sk-test-abcdefghijklmnop1234'
      unwrap(
        await b.request('settings.update', {
          providers: [
            { id: 'p1', name: 'Scripted', baseURL: env.server.baseURL, defaultModel: 'm' },
          ],
          apiKeys: { p1: secret },
          permissionPolicy: 'ask',
        }),
      )
      const view = unwrap(await b.request('settings.get', {}))
      expect(view.providers[0]).toMatchObject({ id: 'p1', apiKey: 'sk-…1234' })
      expect(JSON.stringify(view)).not.toContain(secret)
      const bad = await b.request('settings.update', { activeProviderId: 'missing' })
      expect(bad).toMatchObject({ ok: false, error: { code: 'bad_request' } })
      expect(unwrap(await b.request('providers.test', { baseURL: env.server.baseURL }))).toEqual({
        models: ['m', 'm2'],
      })
      const refused = await b.request('providers.test', { baseURL: 'http://127.0.0.1:9/v1' })
      expect(refused).toMatchObject({ ok: false, error: { code: 'network' } })
      expect(unwrap(await b.request('providers.models', { providerId: 'p1' }))).toEqual({
        models: ['m', 'm2'],
        defaultModel: 'm',
      })
      // without a provider id: the one a new chat would use (here the environment's)
      expect(unwrap(await b.request('providers.models', {}))).toEqual({
        models: ['m', 'm2'],
        defaultModel: 'm',
      })
    })

    it('sessions: list (pinned first), search with snippets, rename, pin, export, delete', async () => {
      const { sessions, total } = unwrap(await b.request('sessions.list', {}))
      expect(total).toBeGreaterThan(2)
      const target = sessions.find((s) => s.title === 'what is a cairn?')!
      unwrap(await b.request('sessions.pin', { id: target.id, pinned: true }))
      expect(unwrap(await b.request('sessions.list', { limit: 1 })).sessions[0]?.id).toBe(target.id)
      const hits = unwrap(await b.request('sessions.search', { query: 'Stones' })).hits
      expect(hits[0]).toMatchObject({ sessionId: target.id })
      expect(hits[0]?.snippet).toMatch(/Stones/)
      expect(
        unwrap(await b.request('sessions.rename', { id: target.id, title: 'About cairns' })).title,
      ).toBe('About cairns')
      const exported = unwrap(await b.request('sessions.export', { id: target.id, format: 'md' }))
      expect(exported).toMatchObject({ filename: 'about-cairns.md', mimeType: 'text/markdown' })
      expect(exported.content).toContain('Stones mark the path.')
      const logs = unwrap(await b.request('logs.turns', { sessionId: target.id, limit: 1 }))
      expect(logs.total).toBe(1)
      expect(logs.items[0]?.number).toBe(1)
      expect(unwrap(await b.request('sessions.delete', { id: target.id }))).toEqual({
        deleted: true,
      })
      await waitForEvent(
        b,
        'sessions.changed',
        (p) => p.sessionId === target.id && p.deleted === true,
      )
      expect(await b.request('sessions.get', { id: target.id })).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      })
    })

    it('MCP servers: added disabled, enabled after review, restarted, logs, removed', async () => {
      const config = { command: process.execPath, args: [fixture('echo-server.mjs')] }
      const added = unwrap(await b.request('mcp.add', { name: 'echo', config }))
      expect(added.servers.find((s) => s.name === 'echo')).toMatchObject({
        enabled: false,
        state: 'stopped',
      })
      expect(added.servers.find((s) => s.name === 'echo')?.command).toContain('echo-server.mjs')
      const fingerprint = added.servers.find((s) => s.name === 'echo')?.commandLine?.fingerprint
      unwrap(
        await b.request('mcp.update', {
          name: 'echo',
          enabled: true,
          confirmedFingerprint: fingerprint,
        }),
      )
      const ready = await waitForEvent(
        b,
        'mcp.status',
        (s) => s.name === 'echo' && s.state === 'ready',
      )
      expect(ready.tools.map((t) => t.name)).toContain('echo')
      const before = ready.pid
      const restarted = unwrap(await b.request('mcp.restart', { name: 'echo' })).server
      expect(restarted.state).toBe('ready')
      expect(restarted.pid).not.toBe(before)
      expect(unwrap(await b.request('mcp.logs', { name: 'echo' })).name).toBe('echo')
      const removed = unwrap(await b.request('mcp.remove', { name: 'echo' }))
      expect(removed.servers.some((s) => s.name === 'echo')).toBe(false)
      expect(await b.request('mcp.remove', { name: 'echo' })).toMatchObject({
        ok: false,
        error: { code: 'not_found' },
      })
    })

    historyRouteTests(() => ({ env, b, workspace }))
  })
}

/** Reads the turn's end from the store: the tool result says the call was denied because nobody answered. */
async function waitForTurnEnd(b: TestBridge, turnId: string): Promise<string> {
  const deadline = Date.now() + 10_000
  while (Date.now() < deadline) {
    const list = unwrap(await b.request('sessions.list', { limit: 5 })).sessions
    for (const s of list) {
      const msgs = unwrap(await b.request('sessions.get', { id: s.id })).messages
      const denied = msgs.find(
        (m) => m.turnId === turnId && m.role === 'tool' && m.failureKind === 'denied',
      )
      if (denied && /nobody was there to answer/.test(denied.content)) return 'denied-by-orphan'
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  return 'not denied'
}
