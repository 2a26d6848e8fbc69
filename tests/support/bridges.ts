/**
 * Clients of the contract for tests: the browser-mode WebSocket (a real socket, with the
 * token exchanged for the cookie like a browser does) and an in-process "IPC" that passes
 * structured-cloned messages to the router, the way Electron's IPC does. Every failure
 * either answers, and every error an event carries, is checked against the contract's
 * closed list of codes (`error-codes.ts`).
 */
import { EventEmitter } from 'node:events'
import WebSocket from 'ws'
import { CHANNELS } from '../../src-preload/contract/bridge'
import { forwardEvents, handleRequests } from '../../src-main/electron/ipc'
import type { AppEvent, EventName, EventPayloads } from '../../src-preload/contract/app-events'
import type { CairnBridge } from '../../src-preload/contract/bridge'
import type { Result, RouteInput, RouteName, RouteOutputs } from '../../src-preload/contract/routes'
import type { AppHost } from '../../src-main/services/host/app-host'
import { checkedResult, checkEvent } from './error-codes'

export interface TestBridge extends CairnBridge {
  /** every event received, in order */
  events: AppEvent[]
  close(): Promise<void>
}

type Listener = (payload: never) => void

function listeners() {
  const map = new Map<EventName, Set<Listener>>()
  return {
    on: (e: EventName, l: Listener) => void (map.get(e) ?? map.set(e, new Set()).get(e)!).add(l),
    off: (e: EventName, l: Listener) => void map.get(e)?.delete(l),
    emit: (ev: AppEvent) => map.get(ev.event)?.forEach((l) => l(ev.payload as never)),
  }
}

/** Exchanges the token for the session cookie, like a browser following the printed address. */
export async function sessionCookie(url: string): Promise<string> {
  const res = await fetch(url, { redirect: 'manual' })
  const cookie = res.headers.get('set-cookie')
  if (res.status !== 303 || !cookie) throw new Error(`token exchange failed: ${res.status}`)
  return cookie.split(';')[0]!
}

export async function wsBridge(
  url: string,
  opts: { cookie?: string; origin?: string } = {},
): Promise<TestBridge> {
  const base = new URL(url)
  const cookie = opts.cookie ?? (await sessionCookie(url))
  const ws = new WebSocket(`ws://${base.host}/ws`, {
    headers: { cookie, origin: opts.origin ?? base.origin },
  })
  await new Promise<void>((resolve, reject) => {
    ws.once('open', () => resolve())
    ws.once('error', reject)
    ws.once('unexpected-response', (_req, res) =>
      reject(new Error(`upgrade refused: ${res.statusCode}`)),
    )
  })
  const pending = new Map<number, (r: Result<unknown>) => void>()
  const ls = listeners()
  const events: AppEvent[] = []
  let next = 1
  ws.on('message', (raw) => {
    const msg = JSON.parse(raw.toString()) as {
      id?: number
      result?: Result<unknown>
    } & Partial<AppEvent>
    if (msg.result && typeof msg.id === 'number') {
      pending.get(msg.id)?.(msg.result)
      pending.delete(msg.id)
    } else if (msg.event) {
      checkEvent(msg as AppEvent)
      events.push(msg as AppEvent)
      ls.emit(msg as AppEvent)
    }
  })
  return {
    events,
    request<R extends RouteName>(route: R, input: RouteInput<R>) {
      const id = next++
      ws.send(JSON.stringify({ id, route, input }))
      return new Promise<Result<RouteOutputs[R]>>((resolve) =>
        pending.set(id, resolve as (r: Result<unknown>) => void),
      ).then((r) => checkedResult(route, r))
    },
    on: ls.on as CairnBridge['on'],
    off: ls.off as CairnBridge['off'],
    close: () =>
      new Promise<void>((resolve) => {
        if (ws.readyState === ws.CLOSED) return resolve()
        ws.once('close', () => resolve())
        ws.close()
      }),
  }
}

/**
 * The Electron transport, with only Electron itself faked: the real request handler
 * (sender check, then the router) on a fake `ipcMain`, and the real per-window event
 * forwarding on a fake `webContents`. Messages cross a structured-clone boundary, as IPC.
 */
export function ipcBridge(
  host: AppHost,
  opts: { senderUrl?: string; subframe?: boolean } = {},
): TestBridge {
  const origins = ['app://cairn']
  const handlers = new Map<string, (...args: unknown[]) => Promise<unknown>>()
  handleRequests(
    {
      handle: (channel: string, fn: (...args: never[]) => unknown) =>
        void handlers.set(channel, fn as unknown as (...args: unknown[]) => Promise<unknown>),
      removeHandler: (channel: string) => void handlers.delete(channel),
    } as unknown as Parameters<typeof handleRequests>[0],
    host.router,
    origins,
  )
  const ls = listeners()
  const events: AppEvent[] = []
  let destroyed = false
  const contents = Object.assign(new EventEmitter(), {
    isDestroyed: () => destroyed,
    getURL: () => 'app://cairn/index.html',
    send: (_channel: string, e: AppEvent) => {
      const copy = structuredClone(e)
      checkEvent(copy)
      events.push(copy)
      ls.emit(copy)
    },
  })
  forwardEvents(contents as unknown as Parameters<typeof forwardEvents>[0], host.hub, origins)
  contents.emit('did-finish-load')
  const senderFrame = {
    url: opts.senderUrl ?? 'app://cairn/index.html',
    parent: opts.subframe ? {} : null,
  }
  return {
    events,
    async request<R extends RouteName>(route: R, input: RouteInput<R>) {
      const handler = handlers.get(CHANNELS.request)!
      const result = await handler({ senderFrame }, route, structuredClone(input))
      return checkedResult(route, structuredClone(result) as Result<RouteOutputs[R]>)
    },
    on: ls.on as CairnBridge['on'],
    off: ls.off as CairnBridge['off'],
    close: async () => {
      destroyed = true
      contents.emit('destroyed')
    },
  }
}

/** Waits for an event matching `test` (already received or to come). */
export function waitForEvent<E extends EventName>(
  bridge: TestBridge,
  event: E,
  test: (p: EventPayloads[E]) => boolean = () => true,
  timeoutMs = 15_000,
): Promise<EventPayloads[E]> {
  const seen = bridge.events.find((e) => e.event === event && test(e.payload as EventPayloads[E]))
  if (seen) return Promise.resolve(seen.payload as EventPayloads[E])
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`timed out waiting for ${event}`)), timeoutMs)
    const l = (p: EventPayloads[E]): void => {
      if (!test(p)) return
      clearTimeout(timer)
      bridge.off(event, l)
      resolve(p)
    }
    bridge.on(event, l)
  })
}

export function unwrap<T>(r: Result<T>): T {
  if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`)
  return r.data
}
