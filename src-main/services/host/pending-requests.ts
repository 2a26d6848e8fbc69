/**
 * Requests waiting for a person (approvals, servers' questions). The host shows them
 * (every attached renderer gets the request's event; a renderer that reloads gets them
 * again from `chat.attach` / `chat.status`), and the first answer wins. When no renderer
 * has been attached for a while (the window was closed, not reloaded), every pending
 * request gets the orphan answer.
 *
 * An answer counts only for a request a renderer has been given: one whose event went out
 * while a renderer was attached (the agent emits it just before it asks), or that
 * `pendingFor` / `pendingAll` handed over since. The brokers check that with `shown`.
 */
import type { EventHub } from './event-hub'

interface Pending<Request, Answer> {
  request: Request
  /** a renderer has been given this request, so a person could have seen it */
  shown: boolean
  resolve: (answer: Answer) => void
}

export class PendingRequests<Request extends { requestId: string; sessionId: string }, Answer> {
  private readonly pending = new Map<string, Pending<Request, Answer>>()
  private orphanTimer: NodeJS.Timeout | null = null

  constructor(
    private readonly hub: EventHub,
    private readonly orphanMs: number,
    /** what a request gets when nobody was there to answer it */
    private readonly orphanAnswer: () => Answer,
  ) {
    hub.watchSubscribers(() => this.checkOrphans())
  }

  /** waits for the answer; aborting the signal withdraws the request */
  request(request: Request, signal: AbortSignal): Promise<Answer> {
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

  /** the request still waiting under this id, if a renderer has been given it */
  protected shown(requestId: string): Request | undefined {
    const p = this.pending.get(requestId)
    return p?.shown ? p.request : undefined
  }

  /** answers a waiting request (the caller has checked it with `shown`) */
  protected settle(requestId: string, answer: Answer): void {
    const p = this.pending.get(requestId)
    if (!p) return
    this.pending.delete(requestId)
    this.checkOrphans()
    p.resolve(answer)
  }

  /** the requests of one session still waiting (for a renderer, which may then answer them) */
  pendingFor(sessionId: string): Request[] {
    return this.handOver(
      [...this.pending.values()].filter((p) => p.request.sessionId === sessionId),
    )
  }

  /** every request still waiting, in all sessions (for a renderer) */
  pendingAll(): Request[] {
    return this.handOver([...this.pending.values()])
  }

  private handOver(list: Pending<Request, Answer>[]): Request[] {
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
      for (const id of [...this.pending.keys()]) this.settle(id, this.orphanAnswer())
    }, this.orphanMs)
  }
}
