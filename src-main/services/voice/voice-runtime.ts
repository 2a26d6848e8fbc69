/**
 * Voice mode, for any host (the window through `voice-service.ts`, the CLI directly).
 *
 * A host builds one `VoiceRuntime` with a `VoiceHost`: the tool sources (the connected MCP
 * servers, e.g. `ToolRuntime.manager.sources()`), the voice settings, and `VoiceTurns`, its
 * way of running a turn. Then:
 *
 *     const voice = new VoiceRuntime(host, (event) => show(event))
 *     await voice.start({ sessionId, source: 'microphone' })  // throws ExpectedError (no server, it refused)
 *     voice.status()        // listening, server, target chat, queued finals, why it ended
 *     voice.clearQueue()    // the user stopped the running turn: queued finals are dropped
 *     await voice.stop()    // stt_stop_session; finals already queued are still sent
 *     await voice.shutdown() // before the MCP servers stop: no session is left open on the server
 *
 * Events (`VoiceEvent`, in order): `partial` as the utterance is recognized; `final` for
 * each final utterance (`queued` while a turn runs in the chat, then `sent` when its own
 * turn starts; or `composer` when the settings leave finals to edit); `status` whenever the
 * status changes (a server that died or closed the session ends voice mode with
 * `status.error` saying why); `error` for a final that could not be sent or a failed stop.
 * Finals are sent one after another, each after the chat's running turn has ended. A server
 * that floods is bounded: at most `MAX_WAITING_FINALS` finals wait (or are taken from one
 * answer when finals go to the composer), the rest are dropped and an `error` says how many;
 * of a run of partials only the last is passed on (none before a dropped final), and the
 * status is sent once per answer of the server, not once per final.
 */
import type {
  FinalUtteranceMode,
  VoiceEvent,
  VoiceSource,
  VoiceStatus,
} from '../../../src-preload/contract/voice'
import type { Clock } from '../../core/ports'
import type { ToolSource } from '../../core/tools/tool-source'
import { systemClock } from '../../core/clock'
import { ExpectedError, messageOf } from '../../core/errors'
import { waitAllReady } from '../../core/tools/ready-wait'
import type { Utterance } from './stt-results'
import { VoiceListener } from './voice-listener'
import { findVoiceServer } from './voice-tools'

export interface VoiceTurns {
  /**
   * Sends `text` as the user's message in the chat (a new chat when null); resolves once
   * its turn has started, `ended` once it has ended. Called only when no turn runs there.
   */
  send(
    text: string,
    sessionId: string | null,
  ): Promise<{ sessionId: string; turnId: string; ended: Promise<void> }>
  /** a turn runs in the chat now (the user's own included) */
  isRunning(sessionId: string): boolean
  /** resolves once no turn runs in the chat */
  idle(sessionId: string): Promise<void>
}

export interface VoiceHost {
  /** the tool sources to find the voice server among (the MCP servers) */
  sources(): readonly ToolSource[]
  /** read at each use: the server the settings name (null: the only one) and what finals do */
  settings(): { server: string | null; finalUtterance: FinalUtteranceMode }
  turns: VoiceTurns
  clock?: Clock
}

const shuttingDown = (): ExpectedError =>
  new ExpectedError('unavailable', 'Voice input is shutting down.')

/** how long `start` waits for servers that are still starting */
const READY_TIMEOUT_MS = 10_000
/** finals that may wait for the running turn (or be taken from one answer, to the composer) */
export const MAX_WAITING_FINALS = 10
/** a flood's drops are said at most this often (the count since the last time) */
const DROPPED_SAID_EVERY_MS = 1000

export class VoiceRuntime {
  private listener: VoiceListener | null = null
  private server: string | null = null
  private source: VoiceSource | null = null
  private sessionId: string | null = null
  private error: string | null = null
  private readonly queue: string[] = []
  private draining = false
  private starting: Promise<VoiceStatus> | null = null
  private closed = false
  /** inside one answer of the server: the status is sent once, at its end */
  private batching = false
  private statusDue = false
  /** finals dropped and not said yet, and when a drop was last said */
  private dropped = 0
  private droppedSaidAt = -Infinity

  constructor(
    private readonly host: VoiceHost,
    private readonly onEvent: (e: VoiceEvent) => void,
  ) {}

  status(): VoiceStatus {
    return {
      listening: this.listener !== null,
      server: this.listener ? this.server : null,
      source: this.listener ? this.source : null,
      sessionId: this.sessionId,
      queued: [...this.queue],
      error: this.error,
    }
  }

  /**
   * Starts listening for the chat (null: the first final starts a new chat). Already
   * listening: the finals go to this chat from now on.
   */
  start(opts: { sessionId?: string | null; source?: VoiceSource } = {}): Promise<VoiceStatus> {
    if (this.closed) return Promise.reject(shuttingDown())
    if (opts.sessionId !== undefined) this.sessionId = opts.sessionId
    if (this.listener) {
      this.changed()
      return Promise.resolve(this.status())
    }
    return (this.starting ??= this.open(opts.source).finally(() => (this.starting = null)))
  }

  private async open(source: VoiceSource | undefined): Promise<VoiceStatus> {
    await this.waitForStartingServers()
    const server = findVoiceServer(this.host.sources(), this.host.settings().server)
    const listener = await VoiceListener.open({
      server,
      ...(source ? { source } : {}),
      clock: this.host.clock ?? systemClock,
      onUtterances: (us) => this.heard(us),
      onFailure: (message) => {
        if (this.listener !== listener) return
        this.listener = null
        this.error = message
        this.changed()
      },
    })
    if (this.closed) {
      await listener.stop().catch(() => {})
      throw shuttingDown()
    }
    this.listener = listener
    this.server = server.name
    this.source = source ?? null
    this.error = null
    this.changed()
    return this.status()
  }

  /** Stops listening (the server's session is closed); queued finals are still sent. */
  async stop(): Promise<VoiceStatus> {
    await this.starting?.catch(() => {})
    this.sayDropped(this.host.settings().finalUtterance === 'compose', true)
    const listener = this.listener
    this.listener = null
    this.error = null
    if (listener) {
      this.changed()
      await listener.stop().catch((e: unknown) =>
        this.onEvent({
          type: 'error',
          code: 'unavailable',
          message: `The voice server did not close its session: ${messageOf(e)}`,
        }),
      )
    }
    return this.status()
  }

  /** Drops the finals waiting for the running turn (the user stopped it). */
  clearQueue(): void {
    if (this.queue.length === 0) return
    this.queue.length = 0
    this.changed()
  }

  /** The chat is gone (deleted): voice mode for it ends. */
  async forgetSession(sessionId: string): Promise<void> {
    if (this.sessionId !== sessionId) return
    this.queue.length = 0
    this.sessionId = null
    await this.stop()
  }

  /** Stops listening and drops the queue; `start` refuses from now on. */
  async shutdown(): Promise<void> {
    this.closed = true
    this.queue.length = 0
    await this.stop()
  }

  /** One answer of the server: its partials and finals, in order. */
  private heard(batch: Utterance[]): void {
    this.batching = true
    let partial: string | null = null
    let taken = 0
    let dropped = 0
    const compose = this.host.settings().finalUtterance === 'compose'
    try {
      for (const u of batch) {
        if (u.type === 'partial') {
          partial = u.text // a later partial replaces it
          continue
        }
        const text = u.text.trim()
        if (!text) continue
        if (compose ? taken >= MAX_WAITING_FINALS : this.queue.length >= MAX_WAITING_FINALS) {
          dropped++
          partial = null
          continue
        }
        taken++
        if (partial !== null)
          this.onEvent({ type: 'partial', text: partial, sessionId: this.sessionId })
        partial = null
        this.final(text, compose)
      }
      if (partial !== null)
        this.onEvent({ type: 'partial', text: partial, sessionId: this.sessionId })
      this.dropped += dropped
      this.sayDropped(compose, false)
    } finally {
      this.batching = false
      if (this.statusDue) this.changed()
    }
  }

  /** Says how many finals were dropped: at most once a second while a flood goes on. */
  private sayDropped(compose: boolean, now: boolean): void {
    if (this.dropped === 0) return
    const at = (this.host.clock ?? systemClock).now()
    if (!now && at - this.droppedSaidAt < DROPPED_SAID_EVERY_MS) return
    // more sentences than may wait: a clash with the turn being written, not a failure
    this.onEvent({
      type: 'error',
      code: 'conflict',
      message: droppedMessage(this.dropped, compose),
    })
    this.dropped = 0
    this.droppedSaidAt = at
  }

  private final(text: string, compose: boolean): void {
    if (compose) {
      this.onEvent({ type: 'final', text, disposition: 'composer', sessionId: this.sessionId })
      return
    }
    const waits =
      this.draining || (this.sessionId !== null && this.host.turns.isRunning(this.sessionId))
    this.queue.push(text)
    if (waits) {
      this.onEvent({ type: 'final', text, disposition: 'queued', sessionId: this.sessionId })
      this.changed()
    }
    if (!this.draining) void this.drain()
  }

  /** Sends the queued finals one after another, each after the chat's running turn. */
  private async drain(): Promise<void> {
    this.draining = true
    try {
      while (this.queue.length > 0 && !this.closed) {
        const target = this.sessionId
        if (target !== null && this.host.turns.isRunning(target)) {
          await this.host.turns.idle(target)
          continue
        }
        const text = this.queue.shift()!
        this.changed()
        try {
          const turn = await this.host.turns.send(text, target)
          if (this.sessionId === target) this.sessionId = turn.sessionId
          this.onEvent({
            type: 'final',
            text,
            disposition: 'sent',
            sessionId: turn.sessionId,
            turnId: turn.turnId,
          })
          this.changed()
          await turn.ended
        } catch (e) {
          // the turn's refusal keeps its code (no provider, busy…)
          const refused = e instanceof ExpectedError ? e.info() : null
          this.onEvent({
            type: 'error',
            ...(refused ?? { code: 'internal' }),
            message: `Could not send “${text.slice(0, 80)}”: ${messageOf(e)}`,
          })
        }
      }
    } finally {
      this.draining = false
      this.sayDropped(false, true)
    }
  }

  private async waitForStartingServers(): Promise<void> {
    const starting = this.host.sources().filter((s) => s.status() === 'starting')
    if (starting.length === 0) return
    // a timer we hold (an unreferenced AbortSignal.timeout may be collected unfired)
    const bounded = new AbortController()
    const timer = setTimeout(() => bounded.abort(), READY_TIMEOUT_MS)
    try {
      await waitAllReady(starting, bounded.signal)
    } finally {
      clearTimeout(timer)
    }
  }

  private changed(): void {
    if (this.batching) {
      this.statusDue = true
      return
    }
    this.statusDue = false
    this.onEvent({ type: 'status', status: this.status() })
  }
}

function droppedMessage(n: number, compose: boolean): string {
  const what = n === 1 ? '1 sentence' : `${n} sentences`
  return compose
    ? `Voice input: ${what} heard at once were dropped: at most ${MAX_WAITING_FINALS} are taken from one answer of the voice server.`
    : `Voice input: ${what} heard while an answer was written were dropped: at most ${MAX_WAITING_FINALS} wait for it.`
}
