/**
 * A real server-everything asks the user (elicitation) and reports progress during tool
 * calls, through the agent and the MCP connection.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ElicitAnswer } from '../../src-preload/contract/elicitation'
import { elicitationFields } from '../../src-preload/contract/elicitation'
import type { ElicitationRequestEvent } from '../../src-preload/contract/events'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import type { Elicitor } from '../../src-main/core/ports'
import { AbortReason } from '../../src-main/core/llm/types'
import { CompositeToolHost } from '../../src-main/core/tools/composite-host'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { EVERYTHING, fixture, nodeServer } from '../support/mcp'
import { textReply, toolCallsReply } from '../support/openai-server'

let h: Harness
let m: McpManager
beforeEach(async () => {
  h = await createHarness()
  m = new McpManager({ launchStdio: stdioLauncher(), clientVersion: 'test' })
})
afterEach(async () => {
  await m.shutdown()
  await h.close()
})

function start(extra: { timeoutMs?: number; maxTimeoutMs?: number } = {}): CompositeToolHost {
  m.apply({ everything: { ...nodeServer(EVERYTHING, ['stdio']), ...extra } })
  return new CompositeToolHost(() => m.sources(), { readyTimeoutMs: 15_000 })
}

/** answers each question with `answer`, after `wait` resolves */
function elicitor(
  answer: (req: ElicitationRequestEvent) => ElicitAnswer,
  wait: () => Promise<void> = async () => {},
): Elicitor & { asked: ElicitationRequestEvent[] } {
  const asked: ElicitationRequestEvent[] = []
  return {
    asked,
    async request(req, signal) {
      asked.push(req)
      await wait()
      signal.throwIfAborted()
      return answer(req)
    },
  }
}

function callElicitation(): void {
  h.server.enqueue(
    toolCallsReply([
      { id: 'q1', name: 'everything__trigger-elicitation-request', arguments: '{}' },
    ]),
    textReply('done'),
  )
}

describe('elicitation through a tool call', () => {
  it("shows the server's form and sends the accepted answer, which the tool reports", async () => {
    const host = start()
    callElicitation()
    const e = elicitor(() => ({
      action: 'accept',
      content: { name: 'Ada Lovelace', email: 'ada@example.org', integer: 7, check: true },
    }))
    const { outcome, events } = await h.turn('ask me', { toolHost: host, elicitor: e })
    expect(outcome.reason).toBe('completed')
    expect(e.asked).toHaveLength(1)
    const req = e.asked[0]!
    expect(req).toMatchObject({ server: 'everything', mode: 'form', toolCallId: 'q1' })
    const fields = elicitationFields(req.requestedSchema)
    expect(fields.ok && fields.fields.map((f) => f.kind)).toContain('multi')
    expect(ofType(events, 'elicitation_request')).toHaveLength(1)
    expect(ofType(events, 'elicitation_resolved')[0]).toMatchObject({ action: 'accept' })
    const result = ofType(events, 'tool_result')[0]!
    expect(result.content).toContain('- Name: Ada Lovelace')
    expect(result.content).toContain('- Favorite Integer: 7')
    expect(result.content).toContain('- Email: ada@example.org')
  })

  it('declines for the user; an answer that does not fit the form is not sent', async () => {
    const host = start()
    callElicitation()
    const declined = await h.turn('ask me', {
      toolHost: host,
      elicitor: elicitor(() => ({ action: 'decline' })),
    })
    expect(ofType(declined.events, 'tool_result')[0]!.content).toContain('declined')

    callElicitation()
    // integer 500 is above the form's maximum of 100: the engine does not pass it on
    const bad = await h.turn('ask me again', {
      toolHost: host,
      elicitor: elicitor(() => ({ action: 'accept', content: { name: 'x', integer: 500 } })),
    })
    const badResult = ofType(bad.events, 'tool_result')[0]!.content
    expect(badResult).toContain('declined')
    expect(badResult).not.toContain('500')
  })

  it('a form that is not flat fields is refused without asking anyone', async () => {
    m.apply({ hotel: nodeServer(fixture('elicit-form.mjs')) })
    const host = new CompositeToolHost(() => m.sources(), { readyTimeoutMs: 15_000 })
    h.server.enqueue(
      toolCallsReply([{ id: 'n1', name: 'hotel__book', arguments: '{"form":"nested"}' }]),
      textReply('done'),
    )
    const e = elicitor(() => ({ action: 'accept', content: {} }))
    const { events } = await h.turn('book', { toolHost: host, elicitor: e })
    expect(e.asked).toHaveLength(0)
    // the request is refused as malformed before it reaches Cairn's handler; the tool fails
    const result = ofType(events, 'tool_result')[0]!
    expect(result.ok).toBe(false)
    expect(result.content).not.toContain('"action":"accept"')
  })

  it('Stop while the form is open cancels the question and the call', async () => {
    const host = start()
    callElicitation()
    const stop = new AbortController()
    const e = elicitor(
      () => ({ action: 'accept', content: { name: 'never' } }),
      () => new Promise<void>(() => {}),
    )
    const turn = h.turn('ask me', {
      toolHost: host,
      elicitor: {
        request(req, signal) {
          // the form is open: the user presses Stop
          queueMicrotask(() => stop.abort(new AbortReason('stop')))
          return e.request(req, signal)
        },
      },
      signal: stop.signal,
    })
    const { outcome, events } = await turn
    expect(outcome.reason).toBe('aborted')
    expect(ofType(events, 'elicitation_resolved')[0]).toMatchObject({ action: 'cancel' })
  })

  it("the call's time limit stands still while the user answers", async () => {
    // a limit far shorter than the user takes to answer
    const host = start({ timeoutMs: 300, maxTimeoutMs: 300 })
    callElicitation()
    let release!: () => void
    const answered = new Promise<void>((r) => (release = r))
    const e = elicitor(
      () => ({ action: 'accept', content: { name: 'Slow Typist' } }),
      () => answered,
    )
    const turn = h.turn('ask me', { toolHost: host, elicitor: e })
    // answer only after several of the call's limits have passed
    setTimeout(release, 1200)
    const { events } = await turn
    const result = ofType(events, 'tool_result')[0]!
    expect(result.ok).toBe(true)
    expect(result.content).toContain('- Name: Slow Typist')
  })
})

describe('URL elicitation', () => {
  it('passes the address to the user and tells the server they accepted', async () => {
    const host = start()
    h.server.enqueue(
      toolCallsReply([
        {
          id: 'u1',
          name: 'everything__trigger-url-elicitation',
          arguments: JSON.stringify({ url: 'https://example.org/consent', message: 'Sign here' }),
        },
      ]),
      textReply('done'),
    )
    const e = elicitor(() => ({ action: 'accept' }))
    const { events } = await h.turn('open it', { toolHost: host, elicitor: e })
    expect(e.asked[0]).toMatchObject({
      mode: 'url',
      url: 'https://example.org/consent',
      message: 'Sign here',
      server: 'everything',
    })
    expect(e.asked[0]!.requestedSchema).toBeUndefined()
    expect(ofType(events, 'tool_result')[0]!.content).toContain(
      'User completed the URL elicitation flow',
    )
  })
})

describe('progress of a long-running tool', () => {
  it('reaches the turn as tool_progress events, and each one restarts the time limit', async () => {
    // 8 steps of 0.25 s: 2 s in all, beyond the 700 ms limit, which progress restarts
    const host = start({ timeoutMs: 700, maxTimeoutMs: 60_000 })
    h.server.enqueue(
      toolCallsReply([
        {
          id: 'p1',
          name: 'everything__trigger-long-running-operation',
          arguments: '{"duration":2,"steps":8}',
        },
      ]),
      textReply('done'),
    )
    const { events } = await h.turn('run it', { toolHost: host })
    const progress = ofType(events, 'tool_progress')
    expect(progress.map((p) => p.progress)).toEqual([1, 2, 3, 4, 5, 6, 7, 8])
    expect(progress.every((p) => p.total === 8 && p.id === 'p1')).toBe(true)
    const result = ofType(events, 'tool_result')[0]!
    expect(result.ok).toBe(true)
    expect(result.content).toContain('Long running operation completed')
  })

  it('a tool that reports progress in a burst is not shown every report, but its end is', async () => {
    m.apply({ burst: nodeServer(fixture('progress-burst.mjs')) })
    const host = new CompositeToolHost(() => m.sources(), { readyTimeoutMs: 15_000 })
    h.server.enqueue(
      toolCallsReply([{ id: 'b1', name: 'burst__burst', arguments: '{"count":200}' }]),
      textReply('done'),
    )
    const { events } = await h.turn('burst', { toolHost: host })
    const progress = ofType(events, 'tool_progress')
    expect(progress.length).toBeGreaterThan(0)
    expect(progress.length).toBeLessThan(200)
    expect(progress[progress.length - 1]).toMatchObject({ progress: 200, total: 200 })
    expect(ofType(events, 'tool_result')[0]!.content).toBe('burst 200')
  })

  it('a tool that keeps reporting progress is still cut at the maximum', async () => {
    const host = start({ timeoutMs: 700, maxTimeoutMs: 900 })
    h.server.enqueue(
      toolCallsReply([
        {
          id: 'p2',
          name: 'everything__trigger-long-running-operation',
          arguments: '{"duration":3,"steps":12}',
        },
      ]),
      textReply('done'),
    )
    const { events } = await h.turn('run it', { toolHost: host })
    const result = ofType(events, 'tool_result')[0]!
    expect(result.ok).toBe(false)
    expect(result.content).toMatch(/did not answer within its maximum of 1 s/)
  })
})
