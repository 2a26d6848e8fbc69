import { describe, expect, it } from 'vitest'
import { WsTransport, type SocketLike } from '../../src-renderer/src/platform/ws-transport'

class FakeSocket implements SocketLike {
  readyState = 0
  sent: string[] = []
  onopen: ((ev: unknown) => void) | null = null
  onclose: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  onerror: ((ev: unknown) => void) | null = null
  send(data: string): void {
    this.sent.push(data)
  }
  close(): void {
    this.drop()
  }
  open(): void {
    this.readyState = 1
    this.onopen?.({})
  }
  drop(): void {
    this.readyState = 3
    this.onclose?.({})
  }
  reply(data: unknown): void {
    this.onmessage?.({ data: JSON.stringify(data) })
  }
}

function setup(opts: { requestTimeoutMs?: number; offlineWaitMs?: number } = {}) {
  const sockets: FakeSocket[] = []
  const t = new WsTransport({
    url: 'ws://x/ws',
    connect: () => {
      const s = new FakeSocket()
      sockets.push(s)
      return s
    },
    random: () => 0.5,
    ...opts,
  })
  return { t, sockets }
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms))

describe('the browser-mode transport', () => {
  it('sends requests as {id, route, input} and resolves them with their answer', async () => {
    const { t, sockets } = setup()
    sockets[0]!.open()
    const p = t.request('app.info', {})
    await tick()
    const sent = JSON.parse(sockets[0]!.sent[0]!) as { id: number; route: string; input: unknown }
    expect(sent).toEqual({ id: sent.id, route: 'app.info', input: {} })
    sockets[0]!.reply({ id: sent.id, result: { ok: true, data: { version: '1' } } })
    expect(await p).toEqual({ ok: true, data: { version: '1' } })
  })

  it('dispatches events to listeners, and off removes them', async () => {
    const { t, sockets } = setup()
    sockets[0]!.open()
    const got: unknown[] = []
    const l = (p: unknown) => got.push(p)
    t.on('sessions.changed', l)
    sockets[0]!.reply({ event: 'sessions.changed', payload: { sessionId: 'a' } })
    t.off('sessions.changed', l)
    sockets[0]!.reply({ event: 'sessions.changed', payload: { sessionId: 'b' } })
    expect(got).toEqual([{ sessionId: 'a' }])
  })

  it('answers pending requests at once when the connection drops, then reconnects with backoff', async () => {
    const { t, sockets } = setup()
    const statuses: string[] = []
    t.onStatus((s) => statuses.push(s))
    let reconnected = 0
    t.onReconnect(() => reconnected++)
    sockets[0]!.open()
    const p = t.request('sessions.list', {})
    await tick()
    sockets[0]!.drop()
    expect(await p).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    expect(statuses).toEqual(['open', 'reconnecting'])
    await tick(400)
    expect(sockets).toHaveLength(2)
    sockets[1]!.open()
    expect(statuses.at(-1)).toBe('open')
    expect(reconnected).toBe(1)
  })

  it('a request made while disconnected waits (bounded) for the connection, then fails clearly', async () => {
    const { t, sockets } = setup({ offlineWaitMs: 100 })
    const waiting = t.request('app.info', {})
    await tick(20)
    sockets[0]!.open()
    await tick()
    const id = (JSON.parse(sockets[0]!.sent[0]!) as { id: number }).id
    sockets[0]!.reply({ id, result: { ok: true, data: 1 } })
    expect(await waiting).toEqual({ ok: true, data: 1 })
    sockets[0]!.drop()
    const failed = await t.request('app.info', {})
    expect(failed).toMatchObject({
      ok: false,
      error: { code: 'unavailable', message: expect.stringContaining('not reachable') },
    })
  })

  it('times out a request that is never answered', async () => {
    const { t, sockets } = setup({ requestTimeoutMs: 50 })
    sockets[0]!.open()
    expect(await t.request('app.info', {})).toMatchObject({ ok: false, error: { code: 'timeout' } })
  })
})
