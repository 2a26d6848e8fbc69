/**
 * One router for every transport (Electron IPC, browser-mode WebSocket): the route must
 * exist, the input is parsed with the contract's zod schema, the handler runs, and the
 * answer is always `{ ok: true, data }` or `{ ok: false, error }` — nothing throws across
 * the boundary. Errors are mapped here and only here: an `ExpectedError` goes as it is
 * (code, message, details); input the schema refuses is `bad_request` with each problem
 * under its path in `details.fields`; anything else is a bug, logged with its stack and
 * answered `internal` with a short id that is in the log line too. Checking who sent the
 * request is the transport's job, before this.
 */
import { randomBytes } from 'node:crypto'
import type { ZodError } from 'zod'
import type { ErrorInfo } from '../../src-preload/contract/errors'
import {
  routeInputs,
  type Result,
  type RouteInput,
  type RouteName,
  type RouteOutputs,
} from '../../src-preload/contract/routes'
import { ExpectedError, messageOf } from '../core/errors'

/** Every route has a handler: a missing one is a compile error. */
export type Handlers = { [R in RouteName]: (input: RouteInput<R>) => Promise<RouteOutputs[R]> }

export interface Router {
  handle(route: unknown, input: unknown): Promise<Result<unknown>>
}

/**
 * Told of every unexpected error: the route, the error, and the id the user was given. The
 * host writes it to its log with the stack.
 */
export type InternalErrorLog = (route: string, e: unknown, id: string) => void

function isRoute(route: unknown): route is RouteName {
  return typeof route === 'string' && Object.prototype.hasOwnProperty.call(routeInputs, route)
}

/** The input's path as the window names its fields (`assistant.limits.deadlineMs`). */
function pathOf(path: readonly PropertyKey[]): string {
  return path.length > 0 ? path.map(String).join('.') : '(input)'
}

/** `bad_request` for input the route's schema refused: each problem under its path. */
export function invalidInput(route: string, error: ZodError): ErrorInfo {
  const fields: Record<string, string> = {}
  for (const issue of error.issues) fields[pathOf(issue.path)] ??= issue.message
  const problems = Object.entries(fields)
    .slice(0, 5)
    .map(([path, message]) => `${path}: ${message}`)
    .join('; ')
  return {
    code: 'bad_request',
    message: `Invalid input for ${route}: ${problems}`,
    details: { fields },
  }
}

/** 8 hex characters: short enough to quote, long enough to find one line in a log. */
export function newErrorId(): string {
  return randomBytes(4).toString('hex')
}

/** The answer for an error a handler threw. */
export function errorAnswer(route: string, e: unknown, log?: InternalErrorLog): ErrorInfo {
  if (e instanceof ExpectedError) return e.info()
  const id = newErrorId()
  log?.(route, e, id)
  return {
    code: 'internal',
    message: `${route} failed: ${messageOf(e)} (error ${id}; the log has the details)`,
    details: { id },
  }
}

/** The line a host logs for an unexpected error: the route, the id the user was given, the stack. */
export function internalErrorLine(route: string, e: unknown, id: string): string {
  const stack = e instanceof Error ? (e.stack ?? e.message) : String(e)
  return `${route} failed (error ${id}): ${stack}`
}

export function createRouter(handlers: Handlers, onInternalError?: InternalErrorLog): Router {
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
      if (!parsed.success) return { ok: false, error: invalidInput(route, parsed.error) }
      try {
        const handler = handlers[route] as (input: unknown) => Promise<unknown>
        return { ok: true, data: await handler(parsed.data) }
      } catch (e) {
        return { ok: false, error: errorAnswer(route, e, onInternalError) }
      }
    },
  }
}
