/**
 * Session ids on the command line: the whole id, or a unique beginning of it (as
 * `cairn sessions list` shows them). An ambiguous beginning is a usage error that lists
 * the sessions it could mean.
 */
import type { SessionRecord } from '../../src-preload/contract/dto'
import type { AppServices } from '../services/host/app-services'
import { UsageError } from './args'

const PAGE = 500
/** candidates named in the error at most */
const SHOWN = 10

/** Every session whose id begins with `prefix` (archived ones too). */
function sessionsStartingWith(app: AppServices, prefix: string): SessionRecord[] {
  const found: SessionRecord[] = []
  for (let offset = 0; ; offset += PAGE) {
    const { sessions, total } = app.store.listSessions({
      limit: PAGE,
      offset,
      includeArchived: true,
    })
    for (const s of sessions) if (s.id.startsWith(prefix)) found.push(s)
    if (sessions.length === 0 || offset + PAGE >= total) return found
  }
}

/**
 * The full id `given` stands for. An id no session has (whole or as a beginning) comes
 * back unchanged, so that the command says there is no such session.
 */
export function resolveSessionId(app: AppServices, given: string): string {
  if (app.store.getSession(given)) return given
  const matches = sessionsStartingWith(app, given)
  if (matches.length === 1) return matches[0]!.id
  if (matches.length === 0) return given
  const listed = matches
    .slice(0, SHOWN)
    .map((s) => `  ${s.id}  ${s.title || '(untitled)'}`)
    .join('\n')
  const more = matches.length > SHOWN ? `\n  … and ${matches.length - SHOWN} more` : ''
  throw new UsageError(
    `"${given}" is the beginning of ${matches.length} session ids; give more of the id:\n${listed}${more}`,
  )
}
