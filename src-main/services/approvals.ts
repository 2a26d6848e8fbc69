/**
 * Approval requests waiting for a person. The host shows them (every attached renderer
 * gets the `permission_request` event; a renderer that reloads gets them again from
 * `chat.attach`), and the first answer wins. When no renderer has been attached for a
 * while (the window was closed, not reloaded), pending requests are denied.
 */
import type { ApprovalDecision } from '../../src-preload/contract/dto'
import type { PermissionRequestEvent } from '../../src-preload/contract/events'
import type { Approver } from '../core/ports'
import type { EventHub } from './event-hub'

interface Pending {
  request: PermissionRequestEvent
  resolve: (answer: { decision: ApprovalDecision; reason?: string }) => void
}

export const ORPHAN_REASON = 'nobody was there to answer: the window was closed'

export class ApprovalBroker implements Approver {
  private readonly pending = new Map<string, Pending>()
  private orphanTimer: NodeJS.Timeout | null = null

  constructor(
    private readonly hub: EventHub,
    private readonly orphanMs = 30_000,
  ) {
    hub.watchSubscribers(() => this.checkOrphans())
  }

  request(
    request: PermissionRequestEvent,
    signal: AbortSignal,
  ): Promise<{ decision: ApprovalDecision; reason?: string }> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) return reject(signal.reason as Error)
      const onAbort = (): void => {
        this.pending.delete(request.requestId)
        this.checkOrphans()
        reject(signal.reason as Error)
      }
      signal.addEventListener('abort', onAbort, { once: true })
      this.pending.set(request.requestId, {
        request,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort)
          resolve(answer)
        },
      })
      this.checkOrphans()
    })
  }

  /** The first answer wins; later ones (another window) are not accepted. */
  respond(requestId: string, decision: ApprovalDecision, reason?: string): boolean {
    const p = this.pending.get(requestId)
    if (!p) return false
    this.pending.delete(requestId)
    this.checkOrphans()
    p.resolve({ decision, ...(reason ? { reason } : {}) })
    return true
  }

  pendingFor(sessionId: string): PermissionRequestEvent[] {
    return [...this.pending.values()]
      .filter((p) => p.request.sessionId === sessionId)
      .map((p) => p.request)
  }

  /** every request still waiting, in all sessions */
  pendingAll(): PermissionRequestEvent[] {
    return [...this.pending.values()].map((p) => p.request)
  }

  get size(): number {
    return this.pending.size
  }

  private checkOrphans(): void {
    const orphaned = this.pending.size > 0 && this.hub.subscriberCount === 0
    if (!orphaned) {
      if (this.orphanTimer) clearTimeout(this.orphanTimer)
      this.orphanTimer = null
      return
    }
    this.orphanTimer ??= setTimeout(() => {
      this.orphanTimer = null
      if (this.hub.subscriberCount > 0) return
      for (const id of [...this.pending.keys()]) this.respond(id, 'deny', ORPHAN_REASON)
    }, this.orphanMs)
  }
}
