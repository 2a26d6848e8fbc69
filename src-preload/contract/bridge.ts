/** The one object through which the renderer reaches main, whatever the transport. */
import type { EventName, EventPayloads } from './app-events'
import type { Result, RouteInput, RouteName, RouteOutputs } from './routes'

export interface CairnBridge {
  request<R extends RouteName>(route: R, input: RouteInput<R>): Promise<Result<RouteOutputs[R]>>
  on<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): void
  off<E extends EventName>(event: E, listener: (payload: EventPayloads[E]) => void): void
}

/** The IPC channels of the Electron transport. */
export const CHANNELS = { request: 'cairn:request', event: 'cairn:event' } as const
