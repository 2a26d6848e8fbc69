/**
 * The preload: exposes exactly one global, `window.cairn` ({ request, on, off }), over two
 * channels. The renderer never sees ipcRenderer. It imports nothing of the contract but
 * the channel names (the rest is types), and is bundled as CommonJS (sandboxed preload).
 *
 * Note: the contextBridge does not keep a function's identity: a listener passed to `on`
 * and then to `off` arrives here as two different proxies. `off` therefore works only
 * for the very same proxy; `on` also returns a function that removes that listener, and
 * the renderer's transport should keep its own listener registry in the page (one `on`
 * per event name) — see `src-renderer`'s bridge module.
 */
import { contextBridge, ipcRenderer } from 'electron'
import type { IpcRendererEvent } from 'electron'
import type { AppEvent, EventName, EventPayloads } from './contract/app-events'
import { CHANNELS } from './contract/bridge'
import type { CairnBridge } from './contract/bridge'
import type { Result, RouteInput, RouteName, RouteOutputs } from './contract/routes'

type Listener = (payload: never) => void

const listeners = new Map<string, Set<Listener>>()

ipcRenderer.on(CHANNELS.event, (_event: IpcRendererEvent, message: AppEvent) => {
  const set = message && listeners.get(message.event)
  if (!set) return
  for (const listener of [...set]) {
    try {
      listener(message.payload as never)
    } catch (e) {
      console.error(`A listener of "${message.event}" failed:`, e)
    }
  }
})

function off<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): void {
  const set = listeners.get(event)
  if (!set) return
  set.delete(listener as Listener)
  if (set.size === 0) listeners.delete(event)
}

const cairn = {
  request<R extends RouteName>(route: R, input: RouteInput<R>): Promise<Result<RouteOutputs[R]>> {
    return ipcRenderer.invoke(CHANNELS.request, route, input) as Promise<Result<RouteOutputs[R]>>
  },
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): () => void {
    if (typeof event !== 'string' || typeof listener !== 'function') {
      throw new TypeError('cairn.on(event, listener) needs an event name and a function')
    }
    const set = listeners.get(event) ?? new Set<Listener>()
    listeners.set(event, set)
    set.add(listener as Listener)
    return () => off(event, listener)
  },
  off,
} satisfies CairnBridge

contextBridge.exposeInMainWorld('cairn', cairn)
