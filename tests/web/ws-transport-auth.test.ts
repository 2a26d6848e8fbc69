/** The tab tells a refused connection (token rotated) from a host that is restarting. */
import { describe, expect, it } from 'vitest'
import {
  UNAUTHORIZED_MESSAGE,
  WsTransport,
  type ConnectionStatus,
  type SocketLike,
} from '../../src-renderer/src/platform/ws-transport'

class FakeSocket implements SocketLike {
  readyState = 0
  onopen: ((ev: unknown) => void) | null = null
  onclose: ((ev: unknown) => void) | null = null
  onmessage: ((ev: { data: unknown }) => void) | null = null
  onerror: ((ev: unknown) => void) | null = null
  send(): void {}
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
}

const tick = (ms = 0) => new Promise((r) => setTimeout(r, ms))

function setup(answers: (boolean | null)[]) {
  const sockets: FakeSocket[] = []
  const statuses: ConnectionStatus[] = []
  let checks = 0
  const t = new WsTransport({
    url: 'ws://x/ws',
    connect: () => {
      const s = new FakeSocket()
      sockets.push(s)
      return s
    },
    random: () => 0,
    offlineWaitMs: 10_000,
    checkAuth: () => Promise.resolve(answers[checks++] ?? null),
  })
  t.onStatus((s) => statuses.push(s))
  return { t, sockets, statuses, checks: () => checks }
}

describe('a refused connection', () => {
  it('is "unauthorized" when the host refuses the cookie: no more retries, requests fail at once', async () => {
    const { t, sockets, statuses } = setup([false])
    sockets[0]!.open()
    sockets[0]!.drop() // the host went away
    await tick(200) // first retry after ~190 ms
    expect(sockets).toHaveLength(2)
    sockets[1]!.drop() // the upgrade was refused
    await tick(600)
    expect(t.status).toBe('unauthorized')
    expect(statuses).toContain('unauthorized')
    expect(sockets).toHaveLength(2)
    const r = await t.request('app.info', {})
    expect(r).toEqual({ ok: false, error: { code: 'forbidden', message: UNAUTHORIZED_MESSAGE } })
  })

  it('keeps reconnecting while the host does not answer, and a dropped open socket is not checked', async () => {
    const { t, sockets, checks } = setup([null, true])
    sockets[0]!.open()
    sockets[0]!.drop()
    expect(checks()).toBe(0)
    await tick(200)
    sockets[1]!.drop() // host still down: the check gets no answer
    await tick(400)
    expect(checks()).toBe(1)
    expect(t.status).toBe('reconnecting')
    expect(sockets).toHaveLength(3)
    sockets[2]!.open()
    expect(t.status).toBe('open')
  })
})
