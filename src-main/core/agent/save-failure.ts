/**
 * A turn whose store fails (a damaged database, a disk that refuses writes) ends at once with
 * an error that says what is wrong, what to do, and what of the turn was not saved: text the
 * user already saw streamed is named, so that nothing shown is lost without a word.
 */
import type { ErrorInfo, NewMessage } from '../../../src-preload/contract/dto'
import type { ErrorCode } from '../../../src-preload/contract/errors'
import { ExpectedError, messageOf } from '../errors'

type StorageCode = Extract<ErrorCode, 'database_damaged' | 'data_dir_not_writable' | 'storage'>

/** The storage code of `e` (the store's `StorageError`: `database_damaged`…); null for others. */
function storageCodeOf(e: unknown): StorageCode | null {
  if (!(e instanceof ExpectedError)) return null
  const code: ErrorCode = e.code
  return code === 'database_damaged' || code === 'data_dir_not_writable' || code === 'storage'
    ? code
    : null
}

/** `ctx.save` failed: the message it was given was not stored. */
export class NotSavedError extends ExpectedError<StorageCode> {
  override readonly name = 'NotSavedError'
  constructor(
    readonly unsaved: NewMessage,
    override readonly cause: unknown,
  ) {
    super(storageCodeOf(cause) ?? 'storage', messageOf(cause), { cause })
  }
}

/** What `m` was, for a person: the thing that was not saved. */
function unsavedWords(m: NewMessage): string {
  if (m.kind === 'summary') return 'the summary of earlier messages'
  switch (m.role) {
    case 'user':
      return 'your message'
    case 'tool':
      return `the result of ${m.toolName ?? 'a tool call'} (the tool did run)`
    case 'assistant': {
      const calls = m.toolCalls?.length ?? 0
      const text = m.content.length
      if (text === 0 && calls > 0) return `the model's request to call ${calls} tool(s)`
      return `the answer shown above (${text} characters${calls > 0 ? `, and its ${calls} tool call(s)` : ''}): copy it now if you need it`
    }
    default:
      return 'a message'
  }
}

/**
 * The turn's error for `e`, or null when `e` is no storage failure: the store's own words
 * (what is wrong and what to do) and, when a message was being saved, which one was not.
 */
export function storageFailure(e: unknown, messageSaved: boolean): ErrorInfo | null {
  const notSaved = e instanceof NotSavedError ? e : null
  const cause = notSaved ? notSaved.cause : e
  const code = storageCodeOf(cause)
  if (!notSaved && !code) return null
  const lost = notSaved
    ? ` Not saved: ${unsavedWords(notSaved.unsaved)}. The turn was stopped there.`
    : messageSaved
      ? ' The turn was stopped there.'
      : ' Not saved: your message. The turn was stopped before the model was asked.'
  const message = `Cairn could not save this turn. ${messageOf(cause)}${lost}`
  // the damaged file goes with the code, as when a route meets it
  if (code && cause instanceof ExpectedError) return { ...cause.info(), message } as ErrorInfo
  return { code: 'storage', message }
}
