/**
 * The test platform: an in-memory host behind the same `Platform` interface the desktop
 * and web platforms implement. Routes answer from handlers the test gives; events are
 * pushed with `emit`; every request is recorded. Frames are run by hand.
 */
import {
  attachOverBridge,
  openExtensionOverBridge,
} from '../../../src-renderer/src/platform/attach-file'
import type { EventName, EventPayloads } from '../../../src-preload/contract/app-events'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { ErrorCode, ErrorInfo } from '../../../src-preload/contract/errors'
import type {
  Result,
  RouteInput,
  RouteName,
  RouteOutputs,
} from '../../../src-preload/contract/routes'
import type { FrameScheduler } from '../../../src-renderer/src/state/frame-batcher'
import type { Platform } from '../../../src-renderer/src/platform/types'
import { alwaysOpen } from '../../../src-renderer/src/platform/types'

export type Handler<R extends RouteName> = (
  input: RouteInput<R>,
) => RouteOutputs[R] | Promise<RouteOutputs[R]> | Result<RouteOutputs[R]>

export type Handlers = { [R in RouteName]?: Handler<R> }

/** A handler's refusal, answered as the host answers an ExpectedError. */
export class RouteFailure {
  constructor(
    readonly code: ErrorCode,
    readonly message: string,
    readonly details?: Record<string, unknown>,
  ) {}
}

export interface TestPlatform extends Platform {
  requests: { route: RouteName; input: unknown }[]
  handlers: Handlers
  emit<E extends EventName>(event: E, payload: EventPayloads[E]): void
  opened: string[]
  copied: string[]
  saved: { filename: string; mimeType: string; content: string }[]
}

const defaults: Handlers = {
  'chat.status': () => ({ turns: [], pendingApprovals: [], pendingElicitations: [] }),
  'chat.attach': () => ({ turn: null, pendingApprovals: [], pendingElicitations: [] }),
  'providers.models': () => ({ models: ['m', 'm-large', 'other'], defaultModel: 'm' }),
}

export function createTestPlatform(handlers: Handlers = {}): TestPlatform {
  const listeners = new Map<EventName, Set<(p: never) => void>>()
  const all: Handlers = { ...defaults, ...handlers }
  const platform: TestPlatform = {
    kind: 'test',
    requests: [],
    handlers: all,
    opened: [],
    copied: [],
    saved: [],
    connection: alwaysOpen,
    openExternal: (url) => void platform.opened.push(url),
    copyText: async (text) => void platform.copied.push(text),
    saveFile: async (filename, mimeType, content) => {
      platform.saved.push({ filename, mimeType, content })
      return null
    },
    attachFile: (file) => attachOverBridge(platform.bridge, file),
    openExtension: (file) => openExtensionOverBridge(platform.bridge, file),
    emit(event, payload) {
      for (const l of [...(listeners.get(event) ?? [])]) l(payload as never)
    },
    bridge: {
      async request(route, input) {
        platform.requests.push({ route, input })
        const h = all[route] as Handler<typeof route> | undefined
        if (!h)
          return {
            ok: false,
            error: { code: 'not_found', message: `no test handler for ${route}` },
          }
        try {
          const out = await h(input as never)
          if (out && typeof out === 'object' && 'ok' in out && typeof out.ok === 'boolean')
            return out as never
          return { ok: true, data: out } as never
        } catch (e) {
          if (e instanceof RouteFailure) {
            const { code, message, details } = e
            return {
              ok: false,
              error: { code, message, ...(details ? { details } : {}) } as ErrorInfo,
            }
          }
          throw e
        }
      },
      on(event, listener) {
        let set = listeners.get(event)
        if (!set) listeners.set(event, (set = new Set()))
        set.add(listener as (p: never) => void)
      },
      off(event, listener) {
        listeners.get(event)?.delete(listener as (p: never) => void)
      },
    } satisfies CairnBridge,
  }
  return platform
}

/** Frames run when the test says so. */
export function manualFrames(): FrameScheduler & { run(): void; pending: number } {
  let queue: (() => void)[] = []
  return {
    get pending() {
      return queue.length
    },
    request(cb) {
      queue.push(cb)
      return () => {
        queue = queue.filter((q) => q !== cb)
      }
    },
    run() {
      const q = queue
      queue = []
      for (const cb of q) cb()
    },
  }
}

/** Lets pending promises (requests, their continuations) settle. */
export const settle = (): Promise<void> => new Promise((r) => setTimeout(r, 0))
