/**
 * The turns running in a UI host: at most one per session. Each turn's events are
 * coalesced, numbered, kept (so that a renderer that reloads can attach and get them from
 * the start) and published to every attached renderer.
 */
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { ContentPart } from '../../../src-preload/contract/dto'
import type {
  AgentEvent,
  ElicitationRequestEvent,
  ApprovalRequestEvent,
} from '../../../src-preload/contract/events'
import { AbortReason } from '../../core/llm/types'
import { ExpectedError, type BugReporter } from '../../core/errors'
import type { AppServices } from '../host/app-services'
import type { ApprovalBroker } from '../host/approvals'
import { DeltaCoalescer } from './delta-coalescer'
import type { ElicitationBroker } from '../host/elicitations'
import type { EventHub } from '../host/event-hub'
import type { ToolRuntime } from '../../core/service-ports'
import type { BranchChoice } from './branch-start'
import { runSessionTurn, type TurnInput } from './turn-service'

interface RunningTurn {
  turnId: string
  sessionId: string
  controller: AbortController
  events: SequencedAgentEvent[]
  /** resolves once the turn has ended and saved its end */
  ended: Promise<void>
}

export interface SendInput {
  sessionId?: string
  text: string
  model?: string
  workspace?: string
  /** where the turn starts in the session (unset: after the end of its open branch) */
  branch?: BranchChoice
  /**
   * resources attached to the message, already read (stored with it); unset when replacing:
   * those of the replaced message
   */
  parts?: ContentPart[]
  /** a new chat starts with this assistant; an existing one switches to it */
  assistantId?: string
  /** a new chat starts in this project */
  projectId?: string
}

export class TurnManager {
  private readonly turns = new Map<string, RunningTurn>()
  /**
   * Sessions with a send in progress, from the moment `send` is called (synchronously,
   * before any `await`) until its turn has ended: a second send is refused at once.
   */
  private readonly reserved = new Set<string>()

  constructor(
    private readonly app: AppServices,
    private readonly tools: ToolRuntime,
    private readonly approvals: ApprovalBroker,
    private readonly hub: EventHub,
    private readonly env: NodeJS.ProcessEnv,
    /** who runs turns here, named in another process's "busy" message */
    private readonly owner = 'desktop',
    /** servers' questions during tool calls; none: they are declined */
    private readonly elicitations: ElicitationBroker | null = null,
    /** logs a bug that ends a turn, with the id the window is given */
    private readonly reportBug: BugReporter | null = null,
  ) {}

  private bySession(sessionId: string): RunningTurn | undefined {
    for (const t of this.turns.values()) if (t.sessionId === sessionId) return t
    return undefined
  }

  /** Starts a turn; resolves once its session and id are known (the turn runs on). */
  send(input: SendInput): Promise<{ sessionId: string; turnId: string }> {
    if (
      input.sessionId &&
      (this.reserved.has(input.sessionId) || this.bySession(input.sessionId))
    ) {
      throw new ExpectedError(
        'conflict',
        'A turn is already running in this session: stop it or wait for it to finish.',
      )
    }
    if (input.branch && !input.sessionId) {
      throw new ExpectedError('bad_request', 'sessionId is required to start from a message.')
    }
    const reservation = this.reservation()
    if (input.sessionId) reservation.add(input.sessionId)
    const controller = new AbortController()
    let markEnded!: () => void
    const ended = new Promise<void>((r) => (markEnded = r))
    return new Promise((resolve, reject) => {
      let turn: RunningTurn | null = null
      const coalescer = new DeltaCoalescer((e) => {
        if (turn) this.record(turn, e, reservation)
      })
      /** the turn has ended: it no longer runs, its session is free */
      const settle = (turnId: string | undefined): void => {
        coalescer.flush()
        if (turnId) this.turns.delete(turnId)
        reservation.release()
        markEnded()
      }
      const run = runSessionTurn(this.app, {
        ...this.turnInput(input),
        ...(this.reportBug ? { reportBug: this.reportBug } : {}),
        emit: (e) => coalescer.push(e),
        signal: controller.signal,
        onStart: ({ session, turnId }) => {
          reservation.add(session.id)
          turn = { turnId, sessionId: session.id, controller, events: [], ended }
          this.turns.set(turnId, turn)
          this.changed(session.id)
          resolve({ sessionId: session.id, turnId })
        },
      })
      run.then(
        (r) => {
          settle(r.turnId)
          this.changed(r.sessionId)
          // a generated title arrives after the turn: the list shows it then
          void r.titled?.then((renamed) => {
            if (renamed) this.changed(r.sessionId)
          })
        },
        (e: unknown) => {
          settle(turn?.turnId)
          reject(e instanceof Error ? e : new Error(String(e)))
        },
      )
    })
  }

  /** the sessions one send holds, from its start until its turn has ended */
  private reservation(): { add(sessionId: string): void; release(): void } {
    const held = new Set<string>()
    return {
      add: (id) => {
        this.reserved.add(id)
        held.add(id)
      },
      release: () => held.forEach((id) => this.reserved.delete(id)),
    }
  }

  /** numbers, keeps and publishes one of the turn's (coalesced) events */
  private record(turn: RunningTurn, e: AgentEvent, reservation: { release(): void }): void {
    const event = { ...e, seq: turn.events.length } as SequencedAgentEvent
    turn.events.push(event)
    // a turn that has ended is no longer running, even before its promise settles
    if (e.type === 'turn_end') {
      this.turns.delete(turn.turnId)
      reservation.release()
    }
    this.hub.publish({ event: 'agent', payload: event })
  }

  /** what the turn service gets from a send: the message, the model, the host's tools and approvals */
  private turnInput(input: SendInput): Omit<TurnInput, 'emit'> {
    return {
      ...(input.sessionId ? { sessionId: input.sessionId } : {}),
      text: input.text,
      // an edit keeps what the replaced message carried (as it was read then)
      ...(input.parts ? { parts: input.parts } : {}),
      ...(input.branch ? { branch: input.branch } : {}),
      flags: input.model ? { model: input.model } : {},
      env: this.env,
      ...(input.workspace ? { workspace: input.workspace } : {}),
      ...(input.assistantId ? { assistantId: input.assistantId } : {}),
      ...(input.projectId ? { projectId: input.projectId } : {}),
      tools: (session) => this.tools.hostFor(session),
      approver: this.approvals,
      ...(this.elicitations ? { elicitor: this.elicitations } : {}),
      owner: this.owner,
    }
  }

  private changed(sessionId: string): void {
    this.hub.publish({ event: 'sessions.changed', payload: { sessionId } })
  }

  stop(turnId: string): boolean {
    const turn = this.turns.get(turnId)
    if (!turn) return false
    turn.controller.abort(new AbortReason('stop'))
    return true
  }

  attach(sessionId: string): {
    turn: { turnId: string; events: SequencedAgentEvent[] } | null
    pendingApprovals: ApprovalRequestEvent[]
    pendingElicitations: ElicitationRequestEvent[]
  } {
    const turn = this.bySession(sessionId)
    return {
      turn: turn ? { turnId: turn.turnId, events: [...turn.events] } : null,
      pendingApprovals: this.approvals.pendingFor(sessionId),
      pendingElicitations: this.elicitations?.pendingFor(sessionId) ?? [],
    }
  }

  /** every running turn and every approval still waiting, in all sessions */
  status(): {
    turns: { sessionId: string; turnId: string }[]
    pendingApprovals: ApprovalRequestEvent[]
    pendingElicitations: ElicitationRequestEvent[]
  } {
    return {
      turns: [...this.turns.values()].map((t) => ({ sessionId: t.sessionId, turnId: t.turnId })),
      pendingApprovals: this.approvals.pendingAll(),
      pendingElicitations: this.elicitations?.pendingAll() ?? [],
    }
  }

  isRunning(sessionId: string): boolean {
    return this.bySession(sessionId) !== undefined
  }

  /** resolves once the turn has ended and saved its end (at once when it is not running) */
  ended(turnId: string): Promise<void> {
    return this.turns.get(turnId)?.ended ?? Promise.resolve()
  }

  /** resolves once the turn running in the session (if any) has ended and saved its end */
  idle(sessionId: string): Promise<void> {
    return this.bySession(sessionId)?.ended ?? Promise.resolve()
  }

  /** Stops every running turn and waits (bounded) until each has saved its end. */
  async shutdown(timeoutMs = 10_000): Promise<void> {
    const running = [...this.turns.values()]
    for (const t of running) t.controller.abort(new AbortReason('stop'))
    let timer: NodeJS.Timeout | undefined
    await Promise.race([
      Promise.all(running.map((t) => t.ended)),
      new Promise((r) => (timer = setTimeout(r, timeoutMs))),
    ])
    clearTimeout(timer)
  }
}
