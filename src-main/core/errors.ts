/**
 * Two kinds of failure. An `ExpectedError` is one the program anticipates (a session that is
 * not there, a key the provider rejects, a damaged database): it has one of the contract's
 * codes, a message for the person (what went wrong, what to do) and the details a consumer
 * needs, and it reaches the window or the terminal as it is. Anything else is a bug: the
 * router logs it with its stack and answers `internal` with an id to find the log line.
 * A class that adds meaning (a `StorageError`'s path, an `LlmError`'s partial answer) extends
 * this one; a failure that only needs a code throws it directly.
 */
import type { ErrorCode, ErrorDetails, ErrorInfo } from '../../src-preload/contract/errors'

export class ExpectedError<C extends ErrorCode = ErrorCode> extends Error {
  readonly details: ErrorDetails<C> | undefined

  constructor(
    readonly code: C,
    message: string,
    options: { details?: ErrorDetails<C>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause })
    this.name = 'ExpectedError'
    this.details = options.details
  }

  /** the error as it crosses the boundary */
  info(): ErrorInfo {
    return (
      this.details === undefined
        ? { code: this.code, message: this.message }
        : { code: this.code, message: this.message, details: this.details }
    ) as ErrorInfo
  }
}

/**
 * Logs an unexpected error (a bug) with its stack where the host keeps its log, and gives
 * the short id in that line, for the message the user sees.
 */
export type BugReporter = (e: unknown) => string

/** The contract's shape of `e` when it is an expected error; null for a bug. */
export function expectedInfo(e: unknown): ErrorInfo | null {
  return e instanceof ExpectedError ? e.info() : null
}

/** The message of whatever was thrown. */
export function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e)
}
