/**
 * One speech-to-text session with a voice server: `stt_start_session`, then
 * `stt_get_updates` in a loop that backs off while nothing is said, until `stop()` (which
 * calls `stt_stop_session`) or the server fails (which ends it with a reason).
 */
import { randomUUID } from 'node:crypto'
import type { VoiceSource } from '../../../src-preload/contract/voice'
import type { Clock, ToolCallScope, ToolOutcome } from '../../core/ports'
import { ExpectedError, messageOf } from '../../core/errors'
import type { ToolSource } from '../../core/tools/tool-source'
import { readStartResult, readUpdates, type Utterance } from './stt-results'
import { STT_START, STT_STOP, STT_UPDATES } from './voice-tools'

/** the wait after a poll that brought events (and the first wait of an idle stretch) */
const MIN_POLL_MS = 150
/** the longest wait between polls while nothing is said */
const MAX_POLL_MS = 2000
/** how long a stop waits for the server to answer `stt_stop_session` (a courtesy) */
const STOP_WAIT_MS = 1500

/** the wait after the `idle`-th poll in a row that brought nothing (0: it brought events) */
function pollDelay(idle: number): number {
  return Math.min(MAX_POLL_MS, MIN_POLL_MS * 2 ** Math.max(0, Math.min(idle - 1, 30)))
}

export interface ListenerOptions {
  server: ToolSource
  source?: VoiceSource
  clock: Clock
  /** the utterance events of one answer of the server, in its order */
  onUtterances(us: Utterance[]): void
  /** the session ended by itself: the server died or refused a poll (not called after stop()) */
  onFailure(message: string): void
}

export class VoiceListener {
  private readonly abort = new AbortController()
  private loop: Promise<void> = Promise.resolve()
  private stopping: Promise<void> | null = null

  private constructor(
    private readonly opts: ListenerOptions,
    readonly sessionId: string,
  ) {}

  /** Opens a session on the server and starts polling it; throws when the server refuses. */
  static async open(opts: ListenerOptions): Promise<VoiceListener> {
    const args = opts.source ? { source: opts.source } : {}
    let sessionId: string
    try {
      sessionId = readStartResult(await call(opts.server, STT_START, args))
    } catch (e) {
      // the server refused, failed or answered what Cairn cannot read
      throw new ExpectedError(
        'unavailable',
        `The voice server could not start listening: ${messageOf(e)}`,
        { cause: e },
      )
    }
    const listener = new VoiceListener(opts, sessionId)
    listener.loop = listener.run()
    return listener
  }

  /**
   * Ends polling and closes the session on the server (if it still runs), waiting at most
   * `STOP_WAIT_MS` for its answer: a hung server does not hold up an exit.
   */
  stop(): Promise<void> {
    return (this.stopping ??= (async () => {
      this.abort.abort()
      await this.loop
      if (this.opts.server.status() !== 'ready') return
      const waited = new AbortController()
      const timer = setTimeout(() => waited.abort(), STOP_WAIT_MS)
      try {
        await call(this.opts.server, STT_STOP, { session_id: this.sessionId }, waited.signal)
      } catch (e) {
        if (waited.signal.aborted)
          throw new Error(`it did not answer within ${STOP_WAIT_MS / 1000} s`, { cause: e })
        throw e
      } finally {
        clearTimeout(timer)
      }
    })())
  }

  private async run(): Promise<void> {
    const { server, clock } = this.opts
    const signal = this.abort.signal
    let cursor: unknown = undefined
    let idle = 0
    while (!signal.aborted) {
      let outcome: ToolOutcome
      try {
        if (server.status() !== 'ready') throw new Error(`it is not running (${server.status()})`)
        const args = { session_id: this.sessionId, ...(cursor !== undefined ? { cursor } : {}) }
        outcome = await call(server, STT_UPDATES, args, signal)
        if (signal.aborted) return
        const updates = readUpdates(outcome)
        if (updates.cursor !== undefined) cursor = updates.cursor
        idle = updates.utterances.length > 0 ? 0 : idle + 1
        if (updates.utterances.length > 0) this.opts.onUtterances(updates.utterances)
      } catch (e) {
        if (signal.aborted) return
        this.abort.abort()
        const why = e instanceof Error ? e.message : String(e)
        this.opts.onFailure(
          `Voice input stopped: the voice server "${server.name}" failed (${why}).`,
        )
        return
      }
      try {
        await clock.sleep(pollDelay(idle), signal)
      } catch {
        return
      }
    }
  }
}

function call(
  server: ToolSource,
  tool: string,
  args: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<ToolOutcome> {
  const ctx: ToolCallScope = {
    signal: signal ?? new AbortController().signal,
    sessionId: 'voice',
    toolCallId: `voice-${randomUUID()}`,
  }
  return server.call(tool, args, ctx)
}
