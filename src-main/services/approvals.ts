/**
 * Approval requests waiting for a person. The host shows them (every attached renderer
 * gets the `permission_request` event; a renderer that reloads gets them again from
 * `chat.attach`), and the first answer wins. When no renderer has been attached for a
 * while (the window was closed, not reloaded), pending requests are denied.
 *
 * An answer counts only for a request a renderer has been given: one whose event went out
 * while a renderer was attached (the agent emits it just before it asks), or that
 * `chat.attach` / `chat.status` handed over since. An answer to any other id is refused.
 */
import type { ApprovalDecision } from '../../src-preload/contract/dto'
import type { PermissionRequestEvent } from '../../src-preload/contract/events'
import type { Approver } from '../core/ports'
import type { EventHub } from './event-hub'

interface Pending {
  request: PermissionRequestEvent
  /** a renderer has been given this request, so a person could have seen it */
  shown: boolean
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
        shown: this.hub.subscriberCount > 0,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort)
          resolve(answer)
        },
      })
      this.checkOrphans()
    })
  }

  /**
   * The first answer wins; later ones (another window) are not accepted, and neither is an
   * answer to a request no renderer has been given yet.
   */
  respond(requestId: string, decision: ApprovalDecision, reason?: string): boolean {
    const p = this.pending.get(requestId)
    if (!p || !p.shown) return false
    this.pending.delete(requestId)
    this.checkOrphans()
    p.resolve({ decision, ...(reason ? { reason } : {}) })
    return true
  }

  /** the requests of one session still waiting (for a renderer, which may then answer them) */
  pendingFor(sessionId: string): PermissionRequestEvent[] {
    return this.handOver(
      [...this.pending.values()].filter((p) => p.request.sessionId === sessionId),
    )
  }

  /** every request still waiting, in all sessions (for a renderer) */
  pendingAll(): PermissionRequestEvent[] {
    return this.handOver([...this.pending.values()])
  }

  private handOver(list: Pending[]): PermissionRequestEvent[] {
    for (const p of list) p.shown = true
    return list.map((p) => p.request)
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
      for (const [id, p] of [...this.pending]) {
        p.shown = true // the broker answers it itself
        this.respond(id, 'deny', ORPHAN_REASON)
      }
    }, this.orphanMs)
  }
}
