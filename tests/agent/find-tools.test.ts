/**
 * More tools than one request may carry: the model gets find_tools, searches by name and
 * description, and the tools it found are offered with their full definitions next round.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ToolDescriptor } from '../../src-main/core/ports'
import { toolLimit } from '../../src-main/core/agent/tool-catalog'
import { AssistantToolHost } from '../../src-main/core/tools/assistant-filter'
import { FileTurnLogger } from '../../src-main/adapters/logs/turn-log'
import { listTurnLogs } from '../../src-main/adapters/logs/list'
import { callView } from '../../src-renderer/src/features/chat/inspector/turn-calls'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply } from '../support/openai-server'

let h: Harness
beforeEach(async () => {
  h = await createHarness()
})
afterEach(async () => {
  await h.close()
})

type Body = {
  tools?: { function: { name: string; parameters: unknown } }[]
  messages: { role: string; content: unknown }[]
}
const body = (i: number): Body => h.server.requests[i]?.body as Body
const offered = (i: number): string[] => (body(i).tools ?? []).map((t) => t.function.name)

function mcpTool(server: string, tool: string, description: string): ToolDescriptor {
  return {
    name: `${server}__${tool}`,
    server,
    tool,
    description,
    inputSchema: {
      type: 'object',
      properties: { city: { type: 'string' } },
      required: ['city'],
    },
    annotations: {},
    trusted: false,
    fingerprint: `${server}:${tool}:v1`,
  }
}

/** `n` filler tools on a few servers, plus one weather tool worth finding */
function addMany(n: number): void {
  for (let i = 0; i < n; i++) {
    h.tools.add(
      mcpTool(`srv${i % 6}`, `filler_${i}`, `Does filler job number ${i}.`),
      async () => ({
        content: [{ type: 'text', text: `filler ${i}` }],
      }),
    )
  }
  h.tools.add(
    mcpTool('meteo', 'forecast', 'Tells the weather forecast for a city.'),
    async (args) => ({ content: [{ type: 'text', text: `Sunny in ${String(args['city'])}` }] }),
  )
}

describe('find_tools', () => {
  it('below the limit every tool is offered and find_tools is not', async () => {
    h.server.enqueue(textReply('Hi.'))
    await h.turn('hello', { limits: { maxToolsOffered: 40 } })
    expect(offered(0)).not.toContain('find_tools')
    expect(offered(0)).toContain('read_note')
  })

  it('past the limit: the model searches, the found tool is offered next round and runs', async () => {
    addMany(60)
    h.server.enqueue(
      toolCallsReply([{ id: 'f1', name: 'find_tools', arguments: '{"query":"weather forecast"}' }]),
      toolCallsReply([{ id: 'c1', name: 'meteo__forecast', arguments: '{"city":"Oslo"}' }]),
      textReply('Sunny.'),
    )
    const { outcome, events } = await h.turn('weather in Oslo?', {
      policy: 'ask',
      limits: { maxToolsOffered: 10 },
    })
    expect(outcome.reason).toBe('completed')
    // round 1: find_tools and nothing connected beyond the limit
    expect(offered(0)[0]).toBe('find_tools')
    expect(offered(0).length).toBeLessThanOrEqual(10)
    expect(offered(0)).not.toContain('meteo__forecast')
    // the search names the tool first
    const found = ofType(events, 'tool_result').find((r) => r.id === 'f1')
    expect(found?.ok).toBe(true)
    expect(found?.content.split('\n')[1]).toMatch(
      /^- meteo__forecast \(server meteo\): Tells the weather/,
    )
    // round 2 carries its full definition
    expect(offered(1)).toContain('meteo__forecast')
    expect(offered(1).length).toBeLessThanOrEqual(10)
    const def = body(1).tools!.find((t) => t.function.name === 'meteo__forecast')
    expect(def?.function.parameters).toMatchObject({ required: ['city'] })
    expect(h.tools.calls.map((c) => c.name)).toEqual(['meteo__forecast'])
    // only the real tool was asked about; find_tools never is
    expect(h.approver.asked.map((a) => a.name)).toEqual(['meteo__forecast'])
    // the user is told once why the model searches
    const notices = ofType(events, 'notice').filter((n) => /find_tools/.test(n.message))
    expect(notices).toHaveLength(1)
    expect(notices[0]?.message).toMatch(/^\d+ tools are connected, more than the 10/)
  })

  it('the next turn offers the tools the conversation used, without a new search', async () => {
    addMany(60)
    h.server.enqueue(
      toolCallsReply([{ id: 'f1', name: 'find_tools', arguments: '{"query":"forecast"}' }]),
      toolCallsReply([{ id: 'c1', name: 'meteo__forecast', arguments: '{"city":"Oslo"}' }]),
      textReply('Sunny.'),
      textReply('Still sunny.'),
    )
    await h.turn('weather in Oslo?', { limits: { maxToolsOffered: 10 } })
    await h.turn('and now?', { limits: { maxToolsOffered: 10 } })
    expect(offered(3)).toContain('find_tools')
    expect(offered(3)).toContain('meteo__forecast')
    expect(offered(3).length).toBeLessThanOrEqual(10)
  })

  it('a search that matches nothing says so and loads nothing', async () => {
    addMany(60)
    h.server.enqueue(
      toolCallsReply([{ id: 'f1', name: 'find_tools', arguments: '{"query":"zebra"}' }]),
      textReply('None.'),
    )
    const { events } = await h.turn('zebras?', { limits: { maxToolsOffered: 10 } })
    expect(ofType(events, 'tool_result')[0]?.content).toMatch(/No tool matches "zebra"/)
    expect(offered(1)).toEqual(offered(0))
  })

  it("the turn inspector's view of each call names the tools it offered", async () => {
    addMany(60)
    h.server.enqueue(
      toolCallsReply([{ id: 'f1', name: 'find_tools', arguments: '{"query":"forecast"}' }]),
      textReply('Found it.'),
    )
    await h.turn('find a forecast tool', {
      limits: { maxToolsOffered: 10 },
      logger: new FileTurnLogger(h.dir),
    })
    const page = await listTurnLogs(h.dir, h.sessionId)
    const calls = page.items.map(callView)
    expect(calls).toHaveLength(2)
    const total = h.tools.listTools().length
    expect(calls[0]?.tools).toEqual({ offered: offered(0), total, catalog: true })
    expect(calls[1]?.tools?.offered).toContain('meteo__forecast')
    expect(calls[0]?.tools?.offered).not.toContain('meteo__forecast')
  })

  it('a connected tool named exactly runs although this request did not offer it', async () => {
    addMany(60)
    h.server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'meteo__forecast', arguments: '{"city":"Oslo"}' }]),
      toolCallsReply([{ id: 'c2', name: 'meteo__forecast', arguments: '{"town":"Oslo"}' }]),
      textReply('Sunny.'),
    )
    const { outcome, events } = await h.turn('weather in Oslo?', {
      policy: 'ask',
      limits: { maxToolsOffered: 10 },
    })
    expect(outcome.reason).toBe('completed')
    expect(offered(0)).not.toContain('meteo__forecast')
    const results = ofType(events, 'tool_result')
    // the same approval as an offered tool's, then it runs
    expect(h.approver.asked.map((a) => a.name)).toEqual(['meteo__forecast'])
    expect(results[0]).toMatchObject({ id: 'c1', ok: true, content: 'Sunny in Oslo' })
    // and the same argument checks: a call without its required argument does not run
    expect(results[1]).toMatchObject({ id: 'c2', ok: false, failureKind: 'invalid_arguments' })
    expect(h.tools.calls.map((c) => c.name)).toEqual(['meteo__forecast'])
    // it is offered from the next round on, as if found
    expect(offered(1)).toContain('meteo__forecast')
  })

  it('a tool the assistant does not allow stays unknown, named exactly or not', async () => {
    addMany(60)
    const onlyFillers = new AssistantToolHost(h.tools, {
      builtin: { mode: 'all', names: [] },
      mcp: { servers: { meteo: { mode: 'none', names: [] } }, others: 'all' },
    })
    h.server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'meteo__forecast', arguments: '{"city":"Oslo"}' }]),
      textReply('Cannot.'),
    )
    const { events } = await h.turn('weather in Oslo?', {
      limits: { maxToolsOffered: 10 },
      toolHost: onlyFillers,
    })
    expect(ofType(events, 'tool_result')[0]).toMatchObject({
      id: 'c1',
      ok: false,
      failureKind: 'unknown_tool',
    })
    expect(h.tools.calls).toEqual([])
  })

  it('never offers more than the provider maximum, whatever the setting', () => {
    expect(toolLimit(1000)).toBe(128)
    expect(toolLimit(undefined)).toBe(40)
    expect(toolLimit(12)).toBe(12)
  })
})
