/**
 * Voice mode, for any host (the window through `voice-service.ts`, the CLI directly).
 *
 * A host builds one `VoiceRuntime` with a `VoiceHost`: the tool sources (the connected MCP
 * servers, e.g. `ToolRuntime.manager.sources()`), the voice settings, and `VoiceTurns`, its
 * way of running a turn. Then:
 *
 *     const voice = new VoiceRuntime(host, (event) => show(event))
 *     await voice.start({ sessionId, source: 'microphone' })  // throws VoiceServerError, SttResultError
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
 * Finals are sent one after another, each after the chat's running turn has ended.
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

/** how long `start` waits for servers that are still starting */
const READY_TIMEOUT_MS = 10_000

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
    if (this.closed) return Promise.reject(new Error('Voice input is shutting down.'))
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
      onUtterance: (u) => this.heard(u),
      onFailure: (message) => {
        if (this.listener !== listener) return
        this.listener = null
        this.error = message
        this.changed()
      },
    })
    if (this.closed) {
      await listener.stop().catch(() => {})
      throw new Error('Voice input is shutting down.')
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
    const listener = this.listener
    this.listener = null
    this.error = null
    if (listener) {
      this.changed()
      await listener.stop().catch((e: unknown) =>
        this.onEvent({
          type: 'error',
          message: `The voice server did not close its session: ${e instanceof Error ? e.message : String(e)}`,
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

  private heard(u: Utterance): void {
    if (u.type === 'partial') {
      this.onEvent({ type: 'partial', text: u.text, sessionId: this.sessionId })
      return
    }
    const text = u.text.trim()
    if (!text) return
    if (this.host.settings().finalUtterance === 'compose') {
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
          this.onEvent({
            type: 'error',
            message: `Could not send “${text.slice(0, 80)}”: ${e instanceof Error ? e.message : String(e)}`,
          })
        }
      }
    } finally {
      this.draining = false
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
    this.onEvent({ type: 'status', status: this.status() })
  }
}
