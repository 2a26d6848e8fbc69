/**
 * The one way the window asks the engine something and reads the answer: the route's data,
 * or a `RequestError` that carries the contract's code and details. What a screen shows or
 * offers for a failure is decided from those (`err.info.code`, `err.info.details`), never
 * from the words of the message, which are for the person.
 */
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { ErrorCode, ErrorInfo } from '../../../src-preload/contract/errors'
import type { RouteInput, RouteName, RouteOutputs } from '../../../src-preload/contract/routes'

/** A failed request: the host's code, words and details. */
export class RequestError extends Error {
  readonly code: ErrorCode

  constructor(readonly info: ErrorInfo) {
    super(info.message)
    this.name = 'RequestError'
    this.code = info.code
  }
}

/** The contract's shape of any failure: a request's own, or a thrown value as `internal`. */
export function errorInfoOf(e: unknown): ErrorInfo {
  if (e instanceof RequestError) return e.info
  return { code: 'internal', message: e instanceof Error ? e.message : String(e) }
}

/** `route`'s data; a failure throws a RequestError. */
export async function call<R extends RouteName>(
  bridge: CairnBridge,
  route: R,
  input: RouteInput<R>,
): Promise<RouteOutputs[R]> {
  const r = await bridge.request(route, input)
  if (!r.ok) throw new RequestError(r.error)
  return r.data
}
