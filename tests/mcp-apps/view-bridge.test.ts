// @vitest-environment jsdom
/**
 * The host side of a view's JSON-RPC: every message checked with zod (what is not one of
 * the shapes is refused or dropped, an unknown method answered "not found"), a flood slowed
 * down, and the protocol's order: initialize, then the tool's input and result.
 */
import { describe, expect, it } from 'vitest'
import { parseViewMessage, RPC } from '../../src-preload/contract/view-messages'
import {
  VIEW_BURST,
  ViewHost,
  type ViewHostDeps,
} from '../../src-renderer/src/features/chat/app-view/view-host'

describe("a view's messages", () => {
  it('takes the requests and notifications of the extension, with their parameters', () => {
    expect(
      parseViewMessage({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'add', arguments: { by: 1 } },
      }),
    ).toEqual({
      kind: 'request',
      request: { method: 'tools/call', id: 1, params: { name: 'add', arguments: { by: 1 } } },
    })
    expect(
      parseViewMessage({
        jsonrpc: '2.0',
        method: 'ui/notifications/size-changed',
        params: { height: 300 },
      }),
    ).toMatchObject({ kind: 'notification', notification: { params: { height: 300 } } })
  })

  it('answers an unknown method and bad parameters with errors, and drops what is not JSON-RPC', () => {
    expect(parseViewMessage({ jsonrpc: '2.0', id: 'a', method: 'ui/message', params: {} })).toEqual(
      {
        kind: 'bad-request',
        id: 'a',
        code: RPC.methodNotFound,
        message: 'Cairn does not answer ui/message from a view.',
      },
    )
    expect(
      parseViewMessage({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 5 } }),
    ).toMatchObject({ kind: 'bad-request', id: 2, code: RPC.invalidParams })
    expect(
      parseViewMessage({ jsonrpc: '2.0', id: 3, method: 'ui/open-link', params: { url: '' } }),
    ).toMatchObject({ kind: 'bad-request', code: RPC.invalidParams })
    for (const junk of [
      null,
      'text',
      { method: 'tools/call' },
      { jsonrpc: '1.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: { nested: true }, method: 'ping' },
      { jsonrpc: '2.0', method: 'ui/notifications/size-changed', params: { height: -1 } },
      { jsonrpc: '2.0', method: 'notifications/unknown' },
      { jsonrpc: '2.0', id: 1, method: 'ping', params: 'x'.repeat(1_100_000) },
    ]) {
      expect(parseViewMessage(junk).kind, JSON.stringify(junk)?.slice(0, 60)).toBe('dropped')
    }
    const cyclic: Record<string, unknown> = { jsonrpc: '2.0' }
    cyclic['self'] = cyclic
    expect(parseViewMessage(cyclic).kind).toBe('dropped')
  })
})

function fakeHost(over: Partial<ViewHostDeps> = {}) {
  const sent: Record<string, unknown>[] = []
  const problems: string[] = []
  const calls: { name: string; args: Record<string, unknown> }[] = []
  let now = 0
  const host = new ViewHost({
    post: (m) => sent.push(m as Record<string, unknown>),
    context: () => ({ theme: 'dark', width: 500 }),
    platform: 'web',
    version: 't',
    tool: { name: 'show_counter', server: 'apps' },
    callTool: async (name, args) => {
      calls.push({ name, args })
      return { content: [{ type: 'text', text: 'Counter at 1' }], isError: false }
    },
    openLink: async () => true,
    onHeight: () => {},
    onProblem: (p) => problems.push(p),
    now: () => now,
    ...over,
  })
  return { host, sent, problems, calls, tick: (ms: number) => (now += ms) }
}

const flush = () => new Promise((r) => setTimeout(r, 0))

describe('the view host', () => {
  it('initializes with the host context, then sends the input and the result it holds', async () => {
    const { host, sent } = fakeHost()
    host.toolInput({ label: 'x' })
    host.toolResult({ content: [{ type: 'text', text: 'Counter at 0' }], isError: false })
    expect(sent).toEqual([])
    host.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/initialize',
      params: { protocolVersion: '2026-01-26' },
    })
    await flush()
    expect(sent[0]).toMatchObject({
      id: 1,
      result: {
        protocolVersion: '2026-01-26',
        hostInfo: { name: 'Cairn' },
        hostContext: { theme: 'dark', displayMode: 'inline', platform: 'web' },
      },
    })
    host.receive({ jsonrpc: '2.0', method: 'ui/notifications/initialized' })
    expect(sent.slice(1).map((m) => m['method'])).toEqual([
      'ui/notifications/tool-input',
      'ui/notifications/tool-result',
    ])
  })

  it('passes tools/call on and answers with the result as MCP content', async () => {
    const { host, sent, calls } = fakeHost()
    host.receive({
      jsonrpc: '2.0',
      id: 7,
      method: 'tools/call',
      params: { name: 'add', arguments: { by: 1 } },
    })
    await flush()
    expect(calls).toEqual([{ name: 'add', args: { by: 1 } }])
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 7,
        result: { content: [{ type: 'text', text: 'Counter at 1' }], isError: false },
      },
    ])
  })

  it('answers a refused call with an error in its words', async () => {
    const { host, sent } = fakeHost({
      callTool: () => Promise.reject(new Error('You denied the call of add')),
    })
    host.receive({ jsonrpc: '2.0', id: 8, method: 'tools/call', params: { name: 'add' } })
    await flush()
    expect(sent).toEqual([
      {
        jsonrpc: '2.0',
        id: 8,
        error: { code: RPC.refused, message: 'You denied the call of add' },
      },
    ])
  })

  it('slows a flood down: past the burst, requests are refused until time passes', async () => {
    const { host, sent, calls, tick } = fakeHost()
    for (let i = 0; i < VIEW_BURST + 10; i++)
      host.receive({ jsonrpc: '2.0', id: i, method: 'tools/call', params: { name: 'add' } })
    await flush()
    expect(calls).toHaveLength(VIEW_BURST)
    const limited = sent.filter(
      (m) => (m['error'] as { code?: number } | undefined)?.code === RPC.rateLimited,
    )
    expect(limited).toHaveLength(10)
    tick(1000)
    host.receive({ jsonrpc: '2.0', id: 'later', method: 'ping' })
    await flush()
    expect(sent.at(-1)).toEqual({ jsonrpc: '2.0', id: 'later', result: {} })
  })

  it('says goodbye on teardown and then sends nothing more', () => {
    const { host, sent } = fakeHost()
    host.teardown()
    host.receive({ jsonrpc: '2.0', id: 1, method: 'ping' })
    host.toolResult({ content: [], isError: false })
    expect(sent).toHaveLength(1)
    expect(sent[0]).toMatchObject({ method: 'ui/resource-teardown' })
  })

  it('opens a link only when the user confirmed it', async () => {
    const { host, sent } = fakeHost({ openLink: async () => false })
    host.receive({
      jsonrpc: '2.0',
      id: 1,
      method: 'ui/open-link',
      params: { url: 'https://example.com' },
    })
    await flush()
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 1, result: { isError: true } }])
  })
})
