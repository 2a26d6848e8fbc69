/**
 * The exit status of a command that failed as expected, decided by its code: 2 when what
 * was given is not valid or names nothing (the command line, a file it names, a `--session`
 * that does not exist, a file to import that is not an export), 1 for anything else (a refusal, a provider or server that failed).
 * A turn that ran has its own statuses (`run-turn.ts`).
 */
import type { ExpectedError } from '../core/errors'

export function exitStatusOf(e: ExpectedError): 1 | 2 {
  return e.code === 'bad_request' || e.code === 'no_session' || e.code === 'import_unreadable'
    ? 2
    : 1
}
