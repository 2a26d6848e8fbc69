import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalRequestEvent } from '../../src-preload/contract/events'
import { PermissionGate } from '../../src-main/core/agent/permissions'
import { FIND_TOOLS, ToolCatalog } from '../../src-main/core/agent/tool-catalog'
import type { ToolDescriptor } from '../../src-main/core/ports'
import {
  createHarness,
  MemoryRules,
  ofType,
  ScriptedApprover,
  type Harness,
} from '../support/agent-harness'
import { descriptor, TestToolHost } from '../support/test-tools'
import { textReply, toolCallsReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

const write = (id: string, key = id) => ({
  id,
  name: 'write_note',
  arguments: `{"key":"${key}","text":"t"}`,
})
const read = (id: string) => ({ id, name: 'read_note', arguments: `{"key":"${id}"}` })

describe('the permission gate', () => {
  it('asks with the full request and runs the tool when allowed once', async () => {
    h.server.enqueue(toolCallsReply([write('w1')]), textReply('done'))
    h.approver.answers = [{ decision: 'allow_once' }]
    const { events } = await h.turn('write', { policy: 'ask' })
    expect(h.approver.asked).toHaveLength(1)
    expect(h.approver.asked[0]).toMatchObject({
      type: 'permission_request',
      toolCallId: 'w1',
      name: 'write_note',
      server: 'test',
      tool: 'write_note',
      description: 'Writes a note.',
      arguments: { key: 'w1', text: 't' },
      trusted: true,
    })
    const request = ofType(events, 'permission_request')[0]
    expect(ofType(events, 'permission_decision')[0]).toMatchObject({
      requestId: request?.requestId,
      decision: 'allow_once',
      by: 'user',
    })
    expect(h.tools.calls).toHaveLength(1)
  })

  it('passes a denial and its reason to the model and goes on', async () => {
    h.server.enqueue(toolCallsReply([write('w1')]), textReply('Understood.'))
    h.approver.answers = [{ decision: 'deny', reason: 'not that file' }]
    const { outcome, events } = await h.turn('write', { policy: 'ask' })
    expect(outcome.reason).toBe('completed')
    expect(h.tools.calls).toHaveLength(0)
    const result = ofType(events, 'tool_result')[0]
    expect(result).toMatchObject({ ok: false, synthetic: true, failureKind: 'denied' })
    expect(result?.content).toContain('not that file')
    // the reason ends a sentence: what follows does not run on from it
    expect(result?.content).toContain('Their reason: not that file. Do not call it again')
    expect(ofType(events, 'permission_decision')[0]).toMatchObject({
      decision: 'deny',
      reason: 'not that file',
      by: 'user',
    })
  })

  it('remembers "always allow" and does not ask again', async () => {
    h.server.enqueue(
      toolCallsReply([write('w1')]),
      toolCallsReply([write('w2')]),
      textReply('done'),
    )
    h.approver.answers = [{ decision: 'allow_always' }]
    const { events } = await h.turn('write twice', { policy: 'ask' })
    expect(h.approver.asked).toHaveLength(1)
    expect(h.tools.calls).toHaveLength(2)
    expect(ofType(events, 'permission_decision').map((d) => [d.decision, d.by])).toEqual([
      ['allow_always', 'user'],
      ['allow_always', 'rule'],
    ])
  })

  it('deny-all denies without asking; allow-all allows without asking', async () => {
    h.server.enqueue(toolCallsReply([write('w1')]), textReply('ok'))
    const denied = await h.turn('write', { policy: 'deny-all' })
    expect(ofType(denied.events, 'tool_result')[0]?.failureKind).toBe('denied')
    h.server.enqueue(toolCallsReply([write('w2')]), textReply('ok'))
    const allowed = await h.turn('write', { policy: 'allow-all' })
    expect(ofType(allowed.events, 'tool_result')[0]?.ok).toBe(true)
    expect(h.approver.asked).toHaveLength(0)
    expect(
      ofType([...denied.events, ...allowed.events], 'permission_decision').map((d) => d.by),
    ).toEqual(['policy', 'policy'])
  })

  it('read-only approves trusted read-only tools and asks for the rest', async () => {
    h.server.enqueue(toolCallsReply([read('r1'), write('w1')]), textReply('ok'))
    h.approver.answers = [{ decision: 'allow_once' }]
    await h.turn('go', { policy: 'read-only' })
    expect(h.approver.asked.map((a) => a.toolCallId)).toEqual(['w1'])
    expect(h.tools.calls.map((c) => c.name)).toEqual(['read_note', 'write_note'])
  })

  it('read-only does not believe the annotations of an untrusted server', async () => {
    const untrusted = h.tools.listTools().find((t) => t.name === 'read_note')!
    h.tools.add(
      { ...untrusted, name: 'shady_read', server: 'shady', trusted: false },
      async () => ({
        content: [{ type: 'text', text: 'ok' }],
      }),
    )
    h.server.enqueue(
      toolCallsReply([{ id: 's1', name: 'shady_read', arguments: '{"key":"x"}' }]),
      textReply('ok'),
    )
    h.approver.answers = [{ decision: 'deny' }]
    const { events } = await h.turn('go', { policy: 'read-only' })
    expect(h.approver.asked.map((a) => [a.toolCallId, a.trusted])).toEqual([['s1', false]])
    expect(ofType(events, 'tool_call')[0]?.readOnly).toBe(false)
  })

  it('checks the arguments before asking: invalid calls never reach the user', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'w1', name: 'write_note', arguments: '{"key":1}' }]),
      textReply('ok'),
    )
    await h.turn('go', { policy: 'ask' })
    expect(h.approver.asked).toHaveLength(0)
  })

  it('stop-on-denied ends the turn and answers the remaining calls', async () => {
    h.server.enqueue(toolCallsReply([write('w1'), write('w2')]), textReply('never sent'))
    h.approver.answers = [{ decision: 'deny' }]
    const { outcome, events } = await h.turn('go', {
      policy: 'ask',
      limits: { stopOnDenied: true },
    })
    expect(outcome.reason).toBe('denied')
    expect(ofType(events, 'tool_result').map((r) => [r.id, r.failureKind])).toEqual([
      ['w1', 'denied'],
      ['w2', 'stopped'],
    ])
    expect(h.server.requests).toHaveLength(1)
    expect(ofType(events, 'turn_end')).toEqual([expect.objectContaining({ reason: 'denied' })])
  })

  it('asks once about identical calls in one round, and applies the answer to each', async () => {
    h.server.enqueue(
      toolCallsReply([write('w1', 'k'), write('w2', 'k'), write('w3', 'other')]),
      textReply('done'),
    )
    h.approver.answers = [{ decision: 'deny', reason: 'no' }, { decision: 'allow_once' }]
    const { events } = await h.turn('write', { policy: 'ask' })
    expect(h.approver.asked.map((a) => a.toolCallId)).toEqual(['w1', 'w3'])
    expect(
      ofType(events, 'permission_decision').map((d) => [d.toolCallId, d.decision, d.by]),
    ).toEqual([
      ['w1', 'deny', 'user'],
      ['w2', 'deny', 'user'],
      ['w3', 'allow_once', 'user'],
    ])
    expect(ofType(events, 'tool_result').map((r) => [r.id, r.failureKind ?? null])).toEqual([
      ['w1', 'denied'],
      ['w2', 'denied'],
      ['w3', null],
    ])
    expect(h.tools.calls.map((c) => c.args['key'])).toEqual(['other'])
  })
})

describe('what the gate decides without asking', () => {
  const never = new AbortController().signal
  const gateFor = (policy: 'ask' | 'deny-all') => {
    const approver = new ScriptedApprover()
    return { approver, gate: new PermissionGate(policy, approver, new MemoryRules()) }
  }
  /** what the tool round would announce: the request the approver is given */
  const announce =
    (tool: ToolDescriptor, args: Record<string, unknown>) => (): ApprovalRequestEvent => ({
      type: 'permission_request',
      requestId: 'r',
      toolCallId: 'c',
      name: tool.name,
      server: tool.server,
      tool: tool.tool,
      description: tool.description,
      arguments: args,
      annotations: tool.annotations,
      trusted: tool.trusted,
      sessionId: 's',
      turnId: 't',
      at: 0,
    })
  /** the find_tools the catalog offers when more tools are connected than a request carries */
  async function findTools(): Promise<ToolDescriptor> {
    const host = new TestToolHost()
    for (let i = 0; i < 5; i++)
      host.add(descriptor(`t${i}`, 'A tool.', {}, false), async () => ({ content: [] }))
    const offered = await new ToolCatalog(host, 2).listTools()
    return offered.find((t) => t.tool === FIND_TOOLS)!
  }

  it('never asks about find_tools, whatever the policy; a server tool of that name is asked about', async () => {
    const find = await findTools()
    for (const policy of ['ask', 'deny-all'] as const) {
      const { approver, gate } = gateFor(policy)
      const args = { query: 'weather' }
      expect(await gate.decide(find, args, never, announce(find, args))).toEqual({
        decision: 'allow_once',
        by: 'policy',
      })
      expect(approver.asked).toHaveLength(0)
    }
    const impostor = { ...find, server: 'shady', name: 'shady__find_tools', trusted: false }
    const { approver, gate } = gateFor('ask')
    approver.answers = [{ decision: 'deny' }]
    const decided = await gate.decide(impostor, {}, never, announce(impostor, {}))
    expect(decided).toEqual({ decision: 'deny', by: 'user' })
    expect(approver.asked.map((a) => a.name)).toEqual(['shady__find_tools'])
  })

  it('decides identical calls of one round once (arguments compared canonically); a new round asks again', async () => {
    const tool = descriptor('write_note', 'Writes a note.', {}, false)
    const { approver, gate } = gateFor('ask')
    approver.answers = [
      { decision: 'deny', reason: 'no' },
      { decision: 'allow_once' },
      { decision: 'allow_once' },
    ]
    const decide = (args: Record<string, unknown>) =>
      gate.decide(tool, args, never, announce(tool, args))
    gate.startRound()
    expect(await decide({ key: 'k', text: 't' })).toEqual({
      decision: 'deny',
      reason: 'no',
      by: 'user',
    })
    expect(await decide({ text: 't', key: 'k' })).toEqual({
      decision: 'deny',
      reason: 'no',
      by: 'user',
    })
    expect(await decide({ key: 'other', text: 't' })).toMatchObject({
      decision: 'allow_once',
      by: 'user',
    })
    expect(approver.asked).toHaveLength(2)
    gate.startRound()
    expect(await decide({ key: 'k', text: 't' })).toMatchObject({
      decision: 'allow_once',
      by: 'user',
    })
    expect(approver.asked).toHaveLength(3)
  })

  it('announces a call only when the user is asked about it', async () => {
    const tool = descriptor('write_note', 'Writes a note.', {}, false)
    const { gate } = gateFor('deny-all')
    let announced = 0
    await gate.decide(tool, {}, never, () => {
      announced++
      return announce(tool, {})()
    })
    expect(announced).toBe(0)
  })
})
