/**
 * A server's question in a UI host: it goes out as an event, is listed by chat.attach and
 * chat.status (for a window that reloads), is answered through elicitations.respond (an
 * answer that does not fit is refused with the reason), and Stop withdraws it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AppEvent } from '../../src-preload/contract/app-events'
import type { AgentEvent } from '../../src-preload/contract/events'
import type { Result, RouteInput, RouteName, RouteOutputs } from '../../src-preload/contract/routes'
import type { AppHost } from '../../src-main/services/host/app-host'
import { openChatHost } from '../support/host'
import { fixture } from '../support/mcp'
import {
  lastToolContent,
  textReply,
  toolCallsReply,
  type ScriptedServer,
} from '../support/openai-server'

let dir: string
let server: ScriptedServer
let host: AppHost
let stop: () => Promise<void>
const events: AppEvent[] = []

beforeAll(async () => {
  ;({ dir, server, host, stop } = await openChatHost({
    prefix: 'cairn-elicit-host-',
    hostKind: 'web',
    bridge: false,
    models: ['m'],
    mcpServers: { hotel: { command: process.execPath, args: [fixture('elicit-form.mjs')] } },
  }))
  // a window is attached
  host.hub.subscribe((e) => void events.push(e))
})
afterAll(() => stop())

async function call<R extends RouteName>(route: R, input: RouteInput<R>): Promise<RouteOutputs[R]> {
  const r = (await host.router.handle(route, input)) as Result<RouteOutputs[R]>
  if (!r.ok) throw new Error(r.error.message)
  return r.data
}

function next<T extends AgentEvent['type']>(
  type: T,
  turnId: string,
): Promise<Extract<AgentEvent, { type: T }>> {
  return new Promise((resolve) => {
    const check = (): void => {
      const hit = events.find(
        (e) => e.event === 'agent' && e.payload.turnId === turnId && e.payload.type === type,
      )
      if (hit) resolve(hit.payload as Extract<AgentEvent, { type: T }>)
      else setTimeout(check, 20)
    }
    check()
  })
}

async function startBooking(): Promise<{ sessionId: string; turnId: string; requestId: string }> {
  const sent = await call('chat.send', { text: 'book a room', workspace: dir })
  const ask = await next('permission_request', sent.turnId)
  await call('approvals.respond', { requestId: ask.requestId, decision: 'allow_once' })
  const q = await next('elicitation_request', sent.turnId)
  expect(q).toMatchObject({ server: 'hotel', mode: 'form', message: 'Where and how long?' })
  return { ...sent, requestId: q.requestId }
}

describe('a server question in the window host', () => {
  it('is listed for a reloading window, refuses an answer that does not fit, and sends one that does', async () => {
    server.enqueue(
      toolCallsReply([{ name: 'hotel__book', arguments: '{"form":"defaults"}' }]),
      (req) => textReply(`Booked: ${lastToolContent(req)}`),
    )
    const { sessionId, turnId, requestId } = await startBooking()
    const attached = await call('chat.attach', { sessionId })
    expect(attached.pendingElicitations?.map((q) => q.requestId)).toEqual([requestId])
    const status = await call('chat.status', {})
    expect(status.pendingElicitations?.map((q) => q.requestId)).toEqual([requestId])

    expect(
      await call('elicitations.respond', {
        requestId,
        action: 'accept',
        content: { city: 'Bergen', nights: 99 },
      }),
    ).toEqual({ accepted: false, error: 'nights: At most 30.' })
    expect(
      await call('elicitations.respond', {
        requestId,
        action: 'accept',
        content: { city: 'Bergen', nights: 2 },
      }),
    ).toEqual({ accepted: true })
    const result = await next('tool_result', turnId)
    expect(result.content).toBe(
      'answer: {"action":"accept","content":{"city":"Bergen","nights":2,"breakfast":false}}',
    )
    await next('turn_end', turnId)
    expect((await call('chat.status', {})).pendingElicitations).toEqual([])
  })

  it('Stop withdraws the question: the server is answered cancel and nothing stays pending', async () => {
    server.enqueue(toolCallsReply([{ name: 'hotel__book', arguments: '{"form":"missing"}' }]))
    const { turnId, requestId } = await startBooking()
    expect(await call('chat.stop', { turnId })).toEqual({ stopped: true })
    const resolved = await next('elicitation_resolved', turnId)
    expect(resolved).toMatchObject({ requestId, action: 'cancel' })
    expect((await next('turn_end', turnId)).reason).toBe('aborted')
    expect((await call('chat.status', {})).pendingElicitations).toEqual([])
    expect(await call('elicitations.respond', { requestId, action: 'decline' })).toEqual({
      accepted: false,
    })
  })
})
