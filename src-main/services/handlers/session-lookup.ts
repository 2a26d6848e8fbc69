/** What the session routes share: finding a session, and telling the windows it changed. */
import type { SessionRecord } from '../../../src-preload/contract/dto'
import { ExpectedError } from '../../core/errors'
import type { HandlerContext } from './handler-context'

/** the session, or `not_found` */
export function existingSession(c: Pick<HandlerContext, 'app'>, id: string): SessionRecord {
  const session = c.app.store.getSession(id)
  if (!session) throw new ExpectedError('not_found', `There is no session "${id}".`)
  return session
}

/** every window lists the session again (or drops it, when it was deleted) */
export function sessionChanged(
  c: Pick<HandlerContext, 'hub'>,
  sessionId: string,
  deleted = false,
): void {
  c.hub.publish({
    event: 'sessions.changed',
    payload: { sessionId, ...(deleted ? { deleted } : {}) },
  })
}
