import { afterEach, beforeEach, describe, expect, it } from 'vitest'
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
  messages: {
    role: string
    content: unknown
    tool_call_id?: string
    tool_calls?: { function: { arguments: string } }[]
  }[]
}
const body = (i: number): Body => h.server.requests[i]?.body as Body
const toolMessages = () => h.store.listMessages(h.sessionId).filter((m) => m.role === 'tool')

describe('tool calls', () => {
  it('answers invalid JSON without running the tool, and sends the arguments as {} afterwards', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'read_note', arguments: '{"key": "a"' }]),
      textReply('Sorry.'),
    )
    const { outcome, events } = await h.turn('go')
    expect(outcome.reason).toBe('completed')
    expect(h.tools.calls).toHaveLength(0)
    const result = ofType(events, 'tool_result')[0]
    expect(result).toMatchObject({
      id: 'c1',
      ok: false,
      synthetic: true,
      failureKind: 'invalid_arguments',
    })
    expect(result?.content).toMatch(/not valid JSON/)
    expect(ofType(events, 'tool_call')[0]).toMatchObject({
      arguments: null,
      rawArguments: '{"key": "a"',
    })
    // stored as received, sent as {}
    expect(h.store.listMessages(h.sessionId)[1]?.toolCalls?.[0]?.arguments).toBe('{"key": "a"')
    expect(body(1).messages[1]?.tool_calls?.[0]?.function.arguments).toBe('{}')
  })

  it('rejects schema violations, prototype keys and unknown tools, and goes on', async () => {
    h.server.enqueue(
      toolCallsReply([
        { id: 'c1', name: 'read_note', arguments: '{"key": 5}' },
        { id: 'c2', name: 'read_note', arguments: '{"key":"a","__proto__":{"admin":true}}' },
        { id: 'c3', name: 'launch_rockets', arguments: '{}' },
        { id: 'c4', name: 'read_note', arguments: '{"key":"ok"}' },
      ]),
      textReply('Done.'),
    )
    const { outcome, events } = await h.turn('go')
    expect(outcome.reason).toBe('completed')
    const results = ofType(events, 'tool_result')
    expect(results.map((r) => [r.id, r.failureKind ?? null])).toEqual([
      ['c1', 'invalid_arguments'],
      ['c2', 'invalid_arguments'],
      ['c3', 'unknown_tool'],
      ['c4', null],
    ])
    expect(results[0]?.content).toMatch(/\/key must be string/)
    expect(results[1]?.content).toMatch(/__proto__/)
    expect(results[2]?.content).toMatch(/no tool named "launch_rockets".*read_note/)
    expect(h.tools.calls.map((c) => c.args)).toEqual([{ key: 'ok' }])
    expect(toolMessages().map((m) => m.isError)).toEqual([true, true, true, false])
  })

  it('gives the model an error result when a tool throws or reports an error, and goes on', async () => {
    h.server.enqueue(
      toolCallsReply([
        { id: 'c1', name: 'fail', arguments: '{}' },
        { id: 'c2', name: 'soft_fail', arguments: '{}' },
      ]),
      textReply('Both failed.'),
    )
    const { outcome, events } = await h.turn('go')
    expect(outcome.reason).toBe('completed')
    const results = ofType(events, 'tool_result')
    expect(results.map((r) => [r.ok, r.synthetic])).toEqual([
      [false, false],
      [false, false],
    ])
    expect(results[0]?.content).toMatch(/the disk is on fire/)
    expect(results[1]?.content).toMatch(/^Error from soft_fail: permission denied/)
    // the stored history remembers which results were errors
    expect(toolMessages().map((m) => m.isError)).toEqual([true, true])
    expect(body(1).messages[2]?.content).toMatch(/the disk is on fire/)
  })

  it('cuts long output and says so', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'huge', arguments: '{"size":1234}' }]),
      textReply('ok'),
    )
    await h.turn('go', { limits: { maxToolOutputChars: 1000 } })
    const sent = body(1).messages[2]?.content as string
    expect(
      sent.startsWith(
        'x'.repeat(1000) + '\n[OUTPUT TRUNCATED: showing 1000 of 1234 characters from huge]',
      ),
    ).toBe(true)
    expect(sent).not.toContain('x'.repeat(1001))
  })

  it('sends a tool result as plain text, describing images, and keeps the image for the UI', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'picture', arguments: '' }]),
      textReply('A dot.'),
    )
    await h.turn('draw')
    const sent = body(1).messages[2]?.content
    expect(sent).toMatch(/^a red dot\n\[image: image\/png, \d+ bytes\]$/)
    expect(toolMessages()[0]?.parts?.some((p) => p.type === 'image')).toBe(true)
  })

  it('runs read-only calls of one round in parallel and keeps their results in call order', async () => {
    h.server.enqueue(
      toolCallsReply([
        { id: 'slow', name: 'read_note', arguments: '{"key":"slow","delayMs":300}' },
        { id: 'fast', name: 'read_note', arguments: '{"key":"fast","delayMs":10}' },
        { id: 'mid', name: 'read_note', arguments: '{"key":"mid","delayMs":100}' },
      ]),
      textReply('ok'),
    )
    await h.turn('read three')
    const [slow, fast, mid] = h.tools.calls
    // all three started before the slow one finished
    expect(fast!.startedAt).toBeLessThan(slow!.endedAt!)
    expect(mid!.startedAt).toBeLessThan(slow!.endedAt!)
    expect(fast!.endedAt!).toBeLessThan(slow!.endedAt!)
    expect(toolMessages().map((m) => m.toolCallId)).toEqual(['slow', 'fast', 'mid'])
    expect(
      body(1)
        .messages.slice(2)
        .map((m) => m.tool_call_id),
    ).toEqual(['slow', 'fast', 'mid'])
  })

  it('runs a round one call after another when any call is not read-only', async () => {
    h.server.enqueue(
      toolCallsReply([
        { id: 'a', name: 'read_note', arguments: '{"key":"a","delayMs":100}' },
        { id: 'b', name: 'write_note', arguments: '{"key":"b","text":"x"}' },
      ]),
      textReply('ok'),
    )
    await h.turn('go')
    const [a, b] = h.tools.calls
    expect(b!.startedAt).toBeGreaterThanOrEqual(a!.endedAt!)
  })
})
