/**
 * Twelve servers at once: waiting for them to start (the manager's `settled` and a turn's
 * first wait) emits no process warning, such as a MaxListenersExceededWarning.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import { CompositeToolHost } from '../../src-main/core/tools/composite-host'
import { createHarness } from '../support/agent-harness'
import { fixture, nodeServer } from '../support/mcp'
import { textReply, toolCallsReply } from '../support/openai-server'

let manager: McpManager | null = null
const warnings: Error[] = []
const onWarning = (w: Error): void => void warnings.push(w)
afterEach(async () => {
  process.off('warning', onWarning)
  await manager?.shutdown()
  manager = null
})

describe('many MCP servers', () => {
  it('twelve servers start and are waited for without a process warning', async () => {
    process.on('warning', onWarning)
    manager = new McpManager({ launchStdio: stdioLauncher(), clientVersion: 'test' })
    const config = Object.fromEntries(
      Array.from({ length: 12 }, (_, i) => [`echo${i}`, nodeServer(fixture('echo-server.mjs'))]),
    )
    manager.apply(config)
    const m = manager
    const host = new CompositeToolHost(() => m.sources(), { readyTimeoutMs: 60_000 })
    const turnStop = new AbortController()
    // both waits start while every server is still starting
    expect(m.list().filter((s) => s.state === 'starting')).toHaveLength(12)
    const [notices] = await Promise.all([host.waitUntilReady(turnStop.signal), m.settled(60_000)])
    expect(notices).toEqual([])
    expect(m.list().filter((s) => s.state === 'ready')).toHaveLength(12)
    expect(host.listTools().filter((t) => t.tool === 'echo')).toHaveLength(12)
    // warnings are emitted on a later tick
    await new Promise((r) => setImmediate(r))
    await new Promise((r) => setTimeout(r, 0))
    expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([])
  })
})

describe('many MCP servers in one turn', () => {
  it('twelve servers: the request stays within the tool limit and the model finds a tool', async () => {
    process.on('warning', onWarning)
    manager = new McpManager({ launchStdio: stdioLauncher(), clientVersion: 'test' })
    manager.apply(
      Object.fromEntries(
        Array.from({ length: 12 }, (_, i) => [`echo${i}`, nodeServer(fixture('echo-server.mjs'))]),
      ),
    )
    const m = manager
    const host = new CompositeToolHost(() => m.sources(), { readyTimeoutMs: 60_000 })
    const h = await createHarness()
    try {
      h.server.enqueue(
        toolCallsReply([{ id: 'f', name: 'find_tools', arguments: '{"query":"echo11 echo"}' }]),
        toolCallsReply([{ id: 'e', name: 'echo11__echo', arguments: '{"message":"hi"}' }]),
        textReply('Done.'),
      )
      const { outcome } = await h.turn('echo hi on the last server', { toolHost: host })
      expect(outcome.reason).toBe('completed')
      const connected = host.listTools().length
      expect(connected).toBeGreaterThan(40)
      const sent = (i: number): string[] =>
        (
          (h.server.requests[i]?.body as { tools?: { function: { name: string } }[] }).tools ?? []
        ).map((t) => t.function.name)
      expect(sent(0)).toContain('find_tools')
      expect(sent(0).length).toBeLessThanOrEqual(40)
      expect(sent(1)).toContain('echo11__echo')
      const result = h.store
        .listMessages(h.sessionId)
        .filter((x) => x.role === 'tool')
        .at(-1)
      expect(result?.content).toBe('Echo: hi')
      await new Promise((r) => setImmediate(r))
      expect(warnings.map((w) => `${w.name}: ${w.message}`)).toEqual([])
    } finally {
      await h.close()
    }
  })
})
