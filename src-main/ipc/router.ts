/**
 * One router for every transport (Electron IPC, browser-mode WebSocket): the route must
 * exist, the input is parsed with the contract's zod schema, the handler runs, and the
 * answer is always `{ ok: true, data }` or `{ ok: false, error }` — nothing throws across
 * the boundary. A damaged database (or a data directory Cairn cannot write to) answers with
 * the problem as the code (`database_damaged`) and a message that says what to do. Checking
 * who sent the request is the transport's job, before this.
 */
import { explainQueryError } from '../adapters/sqlite/open-errors'
import {
  routeInputs,
  type Result,
  type RouteInput,
  type RouteName,
  type RouteOutputs,
} from '../../src-preload/contract/routes'

/** Every route has a handler: a missing one is a compile error. */
export type Handlers = { [R in RouteName]: (input: RouteInput<R>) => Promise<RouteOutputs[R]> }

/** An error a handler throws on purpose; its code and message reach the renderer. */
export class RouteError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message)
  }
}

export interface Router {
  handle(route: unknown, input: unknown): Promise<Result<unknown>>
}

function isRoute(route: unknown): route is RouteName {
  return typeof route === 'string' && Object.prototype.hasOwnProperty.call(routeInputs, route)
}

export function createRouter(
  handlers: Handlers,
  onInternalError?: (route: string, e: unknown) => void,
): Router {
  return {
    async handle(route, input) {
      if (!isRoute(route)) {
        return {
          ok: false,
          error: {
            code: 'bad_request',
            message: `There is no route named ${JSON.stringify(route)}.`,
          },
        }
      }
      const parsed = routeInputs[route].safeParse(input ?? {})
      if (!parsed.success) {
        const problems = parsed.error.issues
          .slice(0, 5)
          .map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)
          .join('; ')
        return {
          ok: false,
          error: { code: 'bad_request', message: `Invalid input for ${route}: ${problems}` },
        }
      }
      try {
        const handler = handlers[route] as (input: unknown) => Promise<unknown>
        return { ok: true, data: await handler(parsed.data) }
      } catch (e) {
        if (e instanceof RouteError)
          return { ok: false, error: { code: e.code, message: e.message } }
        // the database is damaged, or its directory not writable: what is wrong and what to do
        const storage = explainQueryError(e, null)
        if (storage) return { ok: false, error: { code: storage.problem, message: storage.message } }
        onInternalError?.(route, e)
        return {
          ok: false,
          error: {
            code: 'internal',
            message: `${route} failed: ${e instanceof Error ? e.message : String(e)}`,
          },
        }
      }
    },
  }
}
