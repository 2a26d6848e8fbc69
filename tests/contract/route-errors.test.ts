/**
 * Every route's failures, walked through the real host over the test IPC bridge: each
 * answers a code from the contract's closed list (the bridge checks every failure it
 * answers and every error an event carries, `tests/support/error-codes.ts`), the precise
 * one, with the details its consumers use (`details.fields` beside a form's field, the
 * provider's address with a turn's provider error). Handlers translate nothing: the codes
 * are the ones the engine's errors carry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { errorCodeSchema, type ErrorCode, type ErrorInfo } from '../../src-preload/contract/errors'
import type { RouteInput, RouteName } from '../../src-preload/contract/routes'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { seenCodes } from '../support/error-codes'
import { openChatHost, openTestHost, type ChatHost, type TestHost } from '../support/host'
import { httpError, textReply } from '../support/openai-server'

/** the route's failure; the test fails when it answers data */
async function refusal<R extends RouteName>(
  b: TestBridge,
  route: R,
  input: RouteInput<R>,
): Promise<ErrorInfo> {
  const r = await b.request(route, input)
  if (r.ok) throw new Error(`${route} answered data: ${JSON.stringify(r.data)}`)
  return r.error
}

async function expectCode<R extends RouteName>(
  b: TestBridge,
  route: R,
  input: RouteInput<R>,
  code: ErrorCode,
): Promise<ErrorInfo> {
  const error = await refusal(b, route, input)
  expect({ route, code: error.code }).toEqual({ route, code })
  return error
}

const fieldsOf = (e: ErrorInfo): Record<string, string> =>
  (e.code === 'bad_request' || e.code === 'conflict' ? e.details?.fields : undefined) ?? {}

describe('every route’s failures carry a code from the closed list', () => {
  let t: ChatHost
  let b: TestBridge
  let sessionId: string

  beforeAll(async () => {
    t = await openChatHost({
      prefix: 'cairn-route-errors-',
      models: ['m'],
      hostKind: 'web',
      env: { HOME: '/nonexistent-home-for-claude-config' },
    })
    b = t.b
    t.server.enqueue(textReply('Hello.'))
    const sent = unwrap(await b.request('chat.send', { text: 'hello' }))
    sessionId = sent.sessionId
    await waitForEvent(b, 'agent', (e) => e.turnId === sent.turnId && e.type === 'turn_end')
  })
  afterAll(async () => t?.stop())

  it('the router: an unknown route, input the schema refuses (each problem under its path)', async () => {
    const unknown = await refusal(b, 'no.such' as 'app.info', {})
    expect(unknown.code).toBe('bad_request')
    const bad = await expectCode(b, 'sessions.list', { limit: -1 }, 'bad_request')
    expect(Object.keys(fieldsOf(bad))).toEqual(['limit'])
  })

  it('sessions and their context: a session or message that is not there', async () => {
    await expectCode(b, 'sessions.get', { id: 'nope' }, 'not_found')
    await expectCode(b, 'sessions.export', { id: 'nope', format: 'md' }, 'not_found')
    await expectCode(b, 'sessions.context', { id: 'nope' }, 'not_found')
    await expectCode(b, 'sessions.rename', { id: 'nope', title: 'x' }, 'not_found')
    await expectCode(b, 'sessions.pin', { id: 'nope', pinned: true }, 'not_found')
    await expectCode(b, 'sessions.setModel', { id: 'nope', model: 'm' }, 'not_found')
    await expectCode(b, 'sessions.setModel', { id: sessionId, model: '   ' }, 'bad_request')
    await expectCode(b, 'logs.turns', { sessionId: 'nope' }, 'not_found')
    await expectCode(b, 'sessions.compact', { id: 'nope' }, 'not_found')
    await expectCode(b, 'sessions.undoCompaction', { id: 'nope', summaryId: 's' }, 'not_found')
    await expectCode(b, 'messages.pin', { sessionId, messageId: 'nope', pinned: true }, 'not_found')
  })

  it('projects: not there, a name taken (beside the name), a relative folder', async () => {
    await expectCode(b, 'projects.get', { id: 'nope' }, 'not_found')
    await expectCode(b, 'projects.update', { id: 'nope', patch: {} }, 'not_found')
    await expectCode(b, 'projects.delete', { id: 'nope' }, 'not_found')
    await expectCode(b, 'sessions.setProject', { id: 'nope', projectId: null }, 'not_found')
    await expectCode(b, 'sessions.setProject', { id: sessionId, projectId: 'nope' }, 'not_found')
    unwrap(await b.request('projects.create', { project: { name: 'Taken', instructions: '' } }))
    const taken = await expectCode(
      b,
      'projects.create',
      { project: { name: 'TAKEN', instructions: '' } },
      'conflict',
    )
    expect(Object.keys(fieldsOf(taken))).toEqual(['name'])
    const relative = await expectCode(
      b,
      'projects.create',
      { project: { name: 'Rel', instructions: '', workspace: 'a/b' } },
      'bad_request',
    )
    expect(Object.keys(fieldsOf(relative))).toEqual(['workspace'])
  })

  it('assistants: not there, a name taken (beside the name), the default kept, a file that is not one', async () => {
    await expectCode(b, 'assistants.get', { id: 'nope' }, 'not_found')
    await expectCode(b, 'assistants.duplicate', { id: 'nope' }, 'not_found')
    await expectCode(b, 'assistants.export', { id: 'nope' }, 'not_found')
    const { defaultId, assistants } = unwrap(await b.request('assistants.list', {}))
    const existing = assistants[0]!
    const { id: _id, origin: _o, createdAt: _c, updatedAt: _u, ...draft } = existing
    await expectCode(
      b,
      'assistants.update',
      { id: 'nope', assistant: { ...draft, name: 'Nobody has this name' } },
      'not_found',
    )
    const taken = await expectCode(b, 'assistants.create', { assistant: draft }, 'conflict')
    expect(Object.keys(fieldsOf(taken))).toEqual(['name'])
    await expectCode(b, 'assistants.delete', { id: defaultId }, 'conflict')
    const invalid = await expectCode(
      b,
      'assistants.create',
      { assistant: { ...draft, name: '', limits: { deadlineMs: 1 } } },
      'bad_request',
    )
    expect(Object.keys(fieldsOf(invalid)).sort()).toEqual([
      'assistant.limits.deadlineMs',
      'assistant.name',
    ])
    await expectCode(b, 'assistants.import', { text: 'not json' }, 'bad_request')
    await expectCode(
      b,
      'sessions.setAssistant',
      { id: 'nope', assistantId: defaultId },
      'not_found',
    )
    await expectCode(
      b,
      'sessions.setAssistant',
      { id: sessionId, assistantId: 'nope' },
      'not_found',
    )
  })

  it('chat: a session or assistant that is not there, a message to replace that is not, a server that is not running', async () => {
    await expectCode(b, 'chat.send', { text: 'hi', sessionId: 'nope' }, 'no_session')
    await expectCode(b, 'chat.send', { text: 'hi', assistantId: 'nope' }, 'no_assistant')
    await expectCode(b, 'chat.send', { text: 'hi', replaces: 'm1' }, 'bad_request')
    await expectCode(b, 'chat.send', { text: 'hi', sessionId, replaces: 'nope' }, 'not_found')
    await expectCode(
      b,
      'chat.send',
      { text: 'hi', attachments: [{ server: 'nope', uri: 'demo://x' }] },
      'unavailable',
    )
    await expectCode(
      b,
      'chat.send',
      { text: '/nope:p', prompt: { server: 'nope', name: 'p' } },
      'unavailable',
    )
    // (busy, a session another process runs a turn in: tests/web/one-turn-per-session.test.ts)
  })

  it('MCP servers: not there, a configuration that is not valid, a name taken, a command not confirmed', async () => {
    for (const route of [
      'mcp.logs',
      'mcp.restart',
      'mcp.remove',
      'mcp.login',
      'mcp.logout',
    ] as const)
      await expectCode(b, route, { name: 'nope' }, 'not_found')
    await expectCode(b, 'mcp.update', { name: 'nope', enabled: true }, 'not_found')
    await expectCode(b, 'mcp.parse', { text: 'not json' }, 'bad_request')
    await expectCode(b, 'mcp.add', { name: 'cairn', config: { command: 'node' } }, 'bad_request')
    unwrap(await b.request('mcp.add', { name: 'local', config: { command: 'node', args: ['-v'] } }))
    await expectCode(b, 'mcp.add', { name: 'local', config: { command: 'node' } }, 'conflict')
    // browser mode: the page must send the fingerprint of the command line it showed
    await expectCode(b, 'mcp.update', { name: 'local', enabled: true }, 'forbidden')
    // a disabled server has no login
    await expectCode(b, 'mcp.login', { name: 'local' }, 'conflict')
    await expectCode(b, 'mcp.importClaude', {}, 'not_found')
    await expectCode(b, 'mcp.readResource', { server: 'nope', uri: 'demo://x' }, 'unavailable')
    await expectCode(b, 'mcp.getPrompt', { server: 'nope', name: 'p' }, 'unavailable')
  })

  it('settings and providers: a field that is not valid (beside it), a provider not there or not answering', async () => {
    const relative = await expectCode(
      b,
      'settings.update',
      { defaultWorkspace: 'relative/folder' },
      'bad_request',
    )
    expect(Object.keys(fieldsOf(relative))).toEqual(['defaultWorkspace'])
    const active = await expectCode(
      b,
      'settings.update',
      { activeProviderId: 'nope' },
      'bad_request',
    )
    expect(Object.keys(fieldsOf(active))).toEqual(['activeProviderId'])
    const limits = await expectCode(
      b,
      'settings.update',
      { limits: { maxIterations: -1 } },
      'bad_request',
    )
    expect(Object.keys(fieldsOf(limits))).toEqual(['limits.maxIterations'])
    await expectCode(b, 'providers.models', { providerId: 'nope' }, 'not_found')
    const down = await expectCode(
      b,
      'providers.test',
      { baseURL: 'http://127.0.0.1:9/v1' },
      'network',
    )
    expect(down.details).toMatchObject({ retryable: expect.any(Boolean) })
  })

  it('the app: no system dialogs in browser mode, no damage to replace', async () => {
    await expectCode(b, 'app.pickFolder', {}, 'unavailable')
    await expectCode(b, 'app.saveFile', { filename: 'a.txt', content: 'x' }, 'unavailable')
    await expectCode(b, 'app.replaceDamagedDatabase', {}, 'conflict')
  })

  it('voice: no voice server', async () => {
    await expectCode(b, 'voice.start', {}, 'not_found')
  })

  it('a turn’s end: the provider’s code, with its address, reaches the window as it is', async () => {
    t.server.enqueue(httpError(401, 'invalid api key'))
    const sent = unwrap(await b.request('chat.send', { text: 'again', sessionId }))
    const end = await waitForEvent(
      b,
      'agent',
      (e) => e.turnId === sent.turnId && e.type === 'turn_end',
    )
    if (end.type !== 'turn_end') throw new Error('expected the turn’s end')
    expect(end.error).toMatchObject({
      code: 'auth',
      details: { provider: t.server.baseURL, status: 401, retryable: false },
    })
  })

  it('every code met is in the closed list', () => {
    expect(seenCodes.size).toBeGreaterThan(8)
    for (const code of seenCodes) expect(errorCodeSchema.options).toContain(code)
  })
})

describe('what a turn needs before it runs', () => {
  let t: TestHost

  beforeAll(async () => {
    t = await openTestHost({ prefix: 'cairn-route-errors-setup-' })
  })
  afterAll(async () => t?.stop())

  it('no provider configured and none found running: no_provider', async () => {
    const e = await expectCode(t.b, 'chat.send', { text: 'hi' }, 'no_provider')
    expect(e.message).toMatch(/\S/)
    await expectCode(t.b, 'providers.models', {}, 'not_found')
  })
})
