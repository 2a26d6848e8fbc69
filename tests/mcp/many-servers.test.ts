/**
 * Twelve servers at once: waiting for them to start (the manager's `settled` and a turn's
 * first wait) emits no process warning, such as a MaxListenersExceededWarning.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import { CompositeToolHost } from '../../src-main/core/tools/composite-host'
import { fixture, nodeServer } from '../support/mcp'

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
