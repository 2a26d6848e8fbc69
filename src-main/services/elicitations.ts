/**
 * Servers' questions (MCP elicitations) waiting for a person, kept like approval requests:
 * every attached renderer gets the `elicitation_request` event, a renderer that reloads
 * gets them again from `chat.attach` / `chat.status`, and the first valid answer wins. An
 * accepted form is checked against the server's schema before it counts. When no renderer
 * has been attached for a while (the window was closed), pending questions are cancelled.
 */
import { settleAnswer, type ElicitAnswer } from '../../src-preload/contract/elicitation'
import type { ElicitationRequestEvent } from '../../src-preload/contract/events'
import type { Elicitor } from '../core/ports'
import type { EventHub } from './event-hub'

interface Pending {
  request: ElicitationRequestEvent
  /** a renderer has been given this question, so a person could have seen it */
  shown: boolean
  resolve: (answer: ElicitAnswer) => void
}

export class ElicitationBroker implements Elicitor {
  private readonly pending = new Map<string, Pending>()
  private orphanTimer: NodeJS.Timeout | null = null

  constructor(
    private readonly hub: EventHub,
    private readonly orphanMs = 30_000,
  ) {
    hub.watchSubscribers(() => this.checkOrphans())
  }

  request(request: ElicitationRequestEvent, signal: AbortSignal): Promise<ElicitAnswer> {
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
   * Answers a question a renderer was given. An accepted form that does not fit the
   * server's schema is refused with the reason, and the question stays open.
   */
  respond(requestId: string, answer: ElicitAnswer): { accepted: boolean; error?: string } {
    const p = this.pending.get(requestId)
    if (!p || !p.shown) return { accepted: false }
    const schema = p.request.mode === 'form' ? p.request.requestedSchema : undefined
    const settled = settleAnswer(schema, answer)
    if (!settled.ok) return { accepted: false, error: settled.error }
    this.pending.delete(requestId)
    this.checkOrphans()
    p.resolve(settled.answer)
    return { accepted: true }
  }

  /** the questions of one session still waiting (for a renderer, which may then answer them) */
  pendingFor(sessionId: string): ElicitationRequestEvent[] {
    return this.handOver(
      [...this.pending.values()].filter((p) => p.request.sessionId === sessionId),
    )
  }

  /** every question still waiting, in all sessions */
  pendingAll(): ElicitationRequestEvent[] {
    return this.handOver([...this.pending.values()])
  }

  private handOver(list: Pending[]): ElicitationRequestEvent[] {
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
        this.respond(id, { action: 'cancel' })
      }
    }, this.orphanMs)
  }
}
