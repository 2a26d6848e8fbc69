/**
 * Browser mode's transport: the contract over one WebSocket to `/ws` (the session cookie
 * authenticates it). A dropped socket is reconnected with backoff; every request pending
 * at that moment is answered at once with an error, and no request waits forever.
 */
import type { AppEvent, EventName, EventPayloads } from '../../../src-preload/contract/app-events'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type {
  Result,
  RouteInput,
  RouteName,
  RouteOutputs,
} from '../../../src-preload/contract/routes'

/** `unauthorized`: the host refuses this tab's cookie (its token was rotated); no retry helps. */
export type ConnectionStatus = 'connecting' | 'open' | 'reconnecting' | 'unauthorized'

export const UNAUTHORIZED_MESSAGE =
  'This address is no longer valid: run npm run web and open the address it prints.'

export interface SocketLike {
  readyState: number
  send(data: string): void
  close(): void
  onopen: ((ev: unknown) => void) | null
  onclose: ((ev: unknown) => void) | null
  onmessage: ((ev: { data: unknown }) => void) | null
  onerror: ((ev: unknown) => void) | null
}

export interface WsTransportOptions {
  url: string
  /** makes a socket (a browser WebSocket by default; tests pass a fake) */
  connect?: (url: string) => SocketLike
  requestTimeoutMs?: number
  /** how long a request made while disconnected waits for the connection to come back */
  offlineWaitMs?: number
  random?: () => number
  /**
   * Asked when a connection attempt fails: does the host still accept this tab? `false`
   * (it answered 401/403) ends the retries with the status `unauthorized`; `null` (no
   * answer: the host is down or restarting) keeps retrying.
   */
  checkAuth?: () => Promise<boolean | null>
}

/** Browser mode's check: `/auth` answers 204 to a valid cookie, 401 otherwise. */
export async function fetchAuthCheck(url = '/auth'): Promise<boolean | null> {
  try {
    const res = await fetch(url, { credentials: 'same-origin' })
    if (res.status === 401 || res.status === 403) return false
    return res.ok ? true : null
  } catch {
    return null
  }
}

const OPEN = 1
type Pending = { resolve: (r: Result<unknown>) => void; timer: ReturnType<typeof setTimeout> }

const lost = (message: string): Result<never> => ({
  ok: false,
  error: { code: 'unavailable', message },
})

export class WsTransport implements CairnBridge {
  private socket: SocketLike | null = null
  private nextId = 1
  private readonly pending = new Map<number, Pending>()
  private readonly listeners = new Map<EventName, Set<(p: never) => void>>()
  private readonly statusListeners = new Set<(s: ConnectionStatus) => void>()
  private readonly reconnectListeners = new Set<() => void>()
  private openWaiters: (() => void)[] = []
  private attempt = 0
  private everOpened = false
  private closedByUs = false
  status: ConnectionStatus = 'connecting'

  constructor(private readonly opts: WsTransportOptions) {
    this.open()
  }

  request<R extends RouteName>(route: R, input: RouteInput<R>): Promise<Result<RouteOutputs[R]>> {
    return this.whenOpen().then((open) => {
      if (this.status === 'unauthorized')
        return { ok: false, error: { code: 'forbidden', message: UNAUTHORIZED_MESSAGE } }
      if (!open || !this.socket) {
        return lost(
          'Cairn is not reachable: the connection was lost and has not come back yet. Try again in a moment.',
        )
      }
      const id = this.nextId++
      return new Promise<Result<RouteOutputs[R]>>((resolve) => {
        const timer = setTimeout(() => {
          this.pending.delete(id)
          resolve({
            ok: false,
            error: { code: 'timeout', message: `Cairn did not answer ${route} in time.` },
          })
        }, this.opts.requestTimeoutMs ?? 60_000)
        this.pending.set(id, { resolve: resolve as (r: Result<unknown>) => void, timer })
        this.socket!.send(JSON.stringify({ id, route, input }))
      })
    })
  }

  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): void {
    let set = this.listeners.get(event)
    if (!set) this.listeners.set(event, (set = new Set()))
    set.add(listener as (p: never) => void)
  }

  off<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): void {
    this.listeners.get(event)?.delete(listener as (p: never) => void)
  }

  onStatus(listener: (s: ConnectionStatus) => void): () => void {
    this.statusListeners.add(listener)
    return () => this.statusListeners.delete(listener)
  }

  /** Called after the connection came back (not on the first connection). */
  onReconnect(listener: () => void): () => void {
    this.reconnectListeners.add(listener)
    return () => this.reconnectListeners.delete(listener)
  }

  close(): void {
    this.closedByUs = true
    this.socket?.close()
  }

  private setStatus(s: ConnectionStatus): void {
    this.status = s
    for (const l of [...this.statusListeners]) l(s)
  }

  private whenOpen(): Promise<boolean> {
    if (this.socket && this.socket.readyState === OPEN) return Promise.resolve(true)
    if (this.status === 'unauthorized') return Promise.resolve(false)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.openWaiters = this.openWaiters.filter((w) => w !== done)
        resolve(false)
      }, this.opts.offlineWaitMs ?? 5000)
      const done = (): void => {
        clearTimeout(timer)
        resolve(true)
      }
      this.openWaiters.push(done)
    })
  }

  private open(): void {
    const socket = (this.opts.connect ?? ((u) => new WebSocket(u) as unknown as SocketLike))(
      this.opts.url,
    )
    this.socket = socket
    let opened = false
    socket.onopen = () => {
      opened = true
      const reconnected = this.everOpened
      this.everOpened = true
      this.attempt = 0
      this.setStatus('open')
      const waiters = this.openWaiters
      this.openWaiters = []
      for (const w of waiters) w()
      if (reconnected) for (const l of [...this.reconnectListeners]) l()
    }
    socket.onmessage = (ev) => this.receive(ev.data)
    socket.onerror = () => {}
    socket.onclose = () => {
      if (this.socket !== socket) return
      this.socket = null
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer)
        p.resolve(
          lost('The connection to Cairn was lost before it answered. Try again when it is back.'),
        )
        this.pending.delete(id)
      }
      if (this.closedByUs) return
      this.setStatus('reconnecting')
      const retry = (): void => {
        const delay =
          Math.min(5000, 250 * 2 ** this.attempt++) *
          (0.75 + (this.opts.random ?? Math.random)() * 0.5)
        setTimeout(() => this.open(), delay)
      }
      // a refused attempt (not a dropped connection): is it the host's answer to our cookie?
      if (opened || !this.opts.checkAuth) return retry()
      void this.opts.checkAuth().then((accepted) => {
        if (this.closedByUs) return
        if (accepted !== false) return retry()
        this.setStatus('unauthorized')
        const waiters = this.openWaiters
        this.openWaiters = []
        for (const w of waiters) w()
      })
    }
  }

  private receive(data: unknown): void {
    let msg: { id?: unknown; result?: Result<unknown> } & Partial<AppEvent>
    try {
      msg = JSON.parse(String(data)) as typeof msg
    } catch {
      return
    }
    if (msg.result !== undefined && typeof msg.id === 'number') {
      const p = this.pending.get(msg.id)
      if (!p) return
      clearTimeout(p.timer)
      this.pending.delete(msg.id)
      p.resolve(msg.result)
      return
    }
    if (typeof msg.event === 'string') {
      for (const l of [...(this.listeners.get(msg.event) ?? [])]) l(msg.payload as never)
    }
  }
}
