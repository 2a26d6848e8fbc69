/**
 * Servers' questions (MCP elicitations) waiting for a person, kept like approval requests
 * (`PendingRequests`): every attached renderer gets the `elicitation_request` event, a
 * renderer that reloads gets them again from `chat.attach` / `chat.status`, and the first
 * valid answer wins. An accepted form is checked against the server's schema before it
 * counts. When no renderer has been attached for a while (the window was closed), pending
 * questions are cancelled.
 */
import { settleAnswer, type ElicitAnswer } from '../../../src-preload/contract/elicitation'
import type { ElicitationRequestEvent } from '../../../src-preload/contract/events'
import type { Elicitor } from '../../core/ports'
import type { EventHub } from './event-hub'
import { PendingRequests } from './pending-requests'

export class ElicitationBroker
  extends PendingRequests<ElicitationRequestEvent, ElicitAnswer>
  implements Elicitor
{
  constructor(hub: EventHub, orphanMs = 30_000) {
    super(hub, orphanMs, () => ({ action: 'cancel' }))
  }

  /**
   * Answers a question a renderer was given. An accepted form that does not fit the
   * server's schema is refused with the reason, and the question stays open.
   */
  respond(requestId: string, answer: ElicitAnswer): { accepted: boolean; error?: string } {
    const request = this.shown(requestId)
    if (!request) return { accepted: false }
    const schema = request.mode === 'form' ? request.requestedSchema : undefined
    const settled = settleAnswer(schema, answer)
    if (!settled.ok) return { accepted: false, error: settled.error }
    this.settle(requestId, settled.answer)
    return { accepted: true }
  }
}
