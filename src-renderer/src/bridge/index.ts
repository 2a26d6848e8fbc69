/**
 * The one module that picks the transport: the preload's `window.cairn` in the desktop
 * app, the WebSocket in browser mode. Everything else uses `bridge` and `connection`.
 */
import type { EventName, EventPayloads } from '../../../src-preload/contract/app-events'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import { WsTransport, type ConnectionStatus } from './ws-transport'

export interface Connection {
  status(): ConnectionStatus
  onStatus(listener: (s: ConnectionStatus) => void): () => void
  /** after a lost connection came back */
  onReconnect(listener: () => void): () => void
}

declare global {
  interface Window {
    cairn?: CairnBridge
  }
}

/**
 * Functions that cross Electron's contextBridge arrive as new proxies, so `off` could not
 * find a listener given to `on`: keep the listeners here and register one dispatcher per
 * event name with the preload.
 */
function fromPreload(preload: CairnBridge): CairnBridge {
  const listeners = new Map<EventName, Set<(p: never) => void>>()
  return {
    request: (route, input) => preload.request(route, input),
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) {
        listeners.set(event, (set = new Set()))
        const registry = set
        preload.on(event, (payload: EventPayloads[typeof event]) => {
          for (const l of [...registry]) l(payload as never)
        })
      }
      set.add(listener as (p: never) => void)
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener as (p: never) => void)
    },
  }
}

function pick(): { bridge: CairnBridge; connection: Connection } {
  const preload = window.cairn
  if (preload) {
    return {
      bridge: fromPreload(preload),
      connection: { status: () => 'open', onStatus: () => () => {}, onReconnect: () => () => {} },
    }
  }
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const ws = new WsTransport({ url: `${scheme}//${location.host}/ws` })
  return {
    bridge: ws,
    connection: {
      status: () => ws.status,
      onStatus: (l) => ws.onStatus(l),
      onReconnect: (l) => ws.onReconnect(l),
    },
  }
}

export const { bridge, connection } = pick()
