/**
 * tools/list_changed while a server runs: the new tool list is used without a restart, and
 * a tool whose description changed is asked about again even though "Always allow" was
 * given for it before (the rule is bound to the tool's fingerprint).
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import { CompositeToolHost } from '../../src-main/core/tools/composite-host'
import { createHarness, type Harness } from '../support/agent-harness'
import { fixture, nodeServer, waitFor } from '../support/mcp'
import { textReply, toolCallsReply } from '../support/openai-server'

let manager: McpManager
let h: Harness
beforeEach(async () => {
  h = await createHarness()
  manager = new McpManager({ launchStdio: stdioLauncher(), clientVersion: 'test' })
  manager.apply({ changing: nodeServer(fixture('changing-tool.mjs')) })
  await manager.settled(20_000)
})
afterEach(async () => {
  await manager.shutdown()
  await h.close()
})

const greet = (id: string) =>
  toolCallsReply([{ id, name: 'changing__greet', arguments: '{"name":"Ada"}' }])
const ctx = () => ({ signal: new AbortController().signal, sessionId: 's', toolCallId: 'c' })

describe('tools/list_changed', () => {
  it('the new list is used without a restart, and the changed tool is asked about again', async () => {
    const host = new CompositeToolHost(() => manager.sources())
    h.approver.answers = [{ decision: 'allow_always' }]
    h.server.enqueue(greet('g1'), textReply('Greeted.'))
    await h.turn('greet Ada', { policy: 'ask', toolHost: host })
    expect(h.approver.asked.map((a) => a.description)).toEqual(['Greets someone (version 1).'])

    // remembered: not asked again
    h.server.enqueue(greet('g2'), textReply('Again.'))
    await h.turn('again', { policy: 'ask', toolHost: host })
    expect(h.approver.asked).toHaveLength(1)

    // the server changes the tool and says so; no restart
    const conn = manager.get('changing')!
    const pid = conn.info().pid
    await conn.call('change', {}, ctx())
    await waitFor(
      () => conn.tools().some((t) => t.description === 'Greets someone (version 2).'),
      10_000,
      'the new tool list',
    )
    expect(conn.info().pid).toBe(pid)

    h.approver.answers = [{ decision: 'allow_once' }]
    h.server.enqueue(greet('g3'), textReply('Changed.'))
    await h.turn('once more', { policy: 'ask', toolHost: host })
    expect(h.approver.asked.map((a) => a.description)).toEqual([
      'Greets someone (version 1).',
      'Greets someone (version 2).',
    ])
    const last = h.store
      .listMessages(h.sessionId)
      .filter((m) => m.role === 'tool')
      .at(-1)
    expect(last?.content).toBe('Hello, Ada (v2)')
  })
})
