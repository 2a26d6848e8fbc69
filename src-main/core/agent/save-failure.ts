/**
 * A turn whose store fails (a damaged database, a disk that refuses writes) ends at once with
 * an error that says what is wrong, what to do, and what of the turn was not saved: text the
 * user already saw streamed is named, so that nothing shown is lost without a word.
 */
import type { ErrorInfo, NewMessage } from '../../../src-preload/contract/dto'

/** `ctx.save` failed: the message it was given was not stored. */
export class NotSavedError extends Error {
  override readonly name = 'NotSavedError'
  constructor(
    readonly unsaved: NewMessage,
    override readonly cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause), { cause })
  }
}

/** The problem a storage error names (`database_damaged`…), read without knowing its class. */
function problemOf(e: unknown): string | null {
  const problem = (e as { problem?: unknown } | null)?.problem
  return typeof problem === 'string' ? problem : null
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
  const problem = problemOf(cause)
  if (!notSaved && !problem) return null
  const said = cause instanceof Error ? cause.message : String(cause)
  const lost = notSaved
    ? ` Not saved: ${unsavedWords(notSaved.unsaved)}. The turn was stopped there.`
    : messageSaved
      ? ' The turn was stopped there.'
      : ' Not saved: your message. The turn was stopped before the model was asked.'
  return {
    code: problem ?? 'storage',
    message: `Cairn could not save this turn. ${said}${lost}`,
  }
}
