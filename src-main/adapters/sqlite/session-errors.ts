/** The session store's own expected errors. */
import { ExpectedError } from '../../core/errors'

/** The session named is not there (deleted meanwhile): `not_found`, with its id. */
export class SessionNotFoundError extends ExpectedError<'not_found'> {
  constructor(readonly sessionId: string) {
    super('not_found', `There is no session "${sessionId}".`)
    this.name = 'SessionNotFoundError'
  }
}
