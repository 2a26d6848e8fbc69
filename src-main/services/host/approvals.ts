/**
 * Approval requests waiting for a person, kept as `PendingRequests`: the first answer
 * wins, an answer counts only for a request a renderer has been given, and when no
 * renderer has been attached for a while (the window was closed, not reloaded), pending
 * requests are denied.
 */
import type { ApprovalDecision } from '../../../src-preload/contract/dto'
import type { ApprovalRequestEvent } from '../../../src-preload/contract/events'
import type { Approver } from '../../core/ports'
import type { EventHub } from './event-hub'
import { PendingRequests } from './pending-requests'

export const ORPHAN_REASON = 'nobody was there to answer: the window was closed'

type ApprovalAnswer = { decision: ApprovalDecision; reason?: string }

export class ApprovalBroker
  extends PendingRequests<ApprovalRequestEvent, ApprovalAnswer>
  implements Approver
{
  constructor(hub: EventHub, orphanMs = 30_000) {
    super(hub, orphanMs, () => ({ decision: 'deny', reason: ORPHAN_REASON }))
  }

  /**
   * The first answer wins; later ones (another window) are not accepted, and neither is an
   * answer to a request no renderer has been given yet.
   */
  respond(requestId: string, decision: ApprovalDecision, reason?: string): boolean {
    if (!this.shown(requestId)) return false
    this.settle(requestId, { decision, ...(reason ? { reason } : {}) })
    return true
  }
}
