/**
 * Voice input in the CLI: the engine's `VoiceRuntime` (it finds the speech-to-text MCP
 * server, polls it and hands over each final sentence in order) with the chat's turns. Each
 * final sentence is sent as a message of the chat's current session, after what runs there
 * (a sentence heard meanwhile waits, and says so); the host shows what is being heard.
 * Stopping a turn (Ctrl-C) drops the sentences still waiting.
 */
import type { VoiceSource, VoiceStatus } from '../../../src-preload/contract/voice'
import type { AppServices } from '../../services/host/app-services'
import type { ToolRuntime } from '../../core/service-ports'
import { VoiceRuntime, type VoiceTurns } from '../../services/voice/voice-runtime'
import type { Streams } from '../output'
import { stripControls } from '../terminal-text'
import type { ChatSession } from './chat-session'

/** how the host shows voice mode */
export interface VoiceView {
  /** the sentence being spoken, as heard so far ('' when it ended) */
  partial(text: string): void
  /** a final sentence left to edit (the settings' "compose" mode) */
  composed?(text: string): void
  /** a sentence is about to be sent (the chat is about to run it) */
  sending?(): void
  /** voice mode ended by itself (the server died or closed the session); already said */
  ended?(): void
  /** writes a line that comes while the user may be typing (default: on stderr) */
  notice?(line: string): void
}

export class ChatVoice {
  private runtime: VoiceRuntime | null = null
  private lastError: string | null = null

  constructor(
    private readonly app: AppServices,
    private readonly tools: ToolRuntime,
    private readonly chat: ChatSession,
    private readonly streams: Streams,
    private readonly view: VoiceView,
    /** finals are always sent (headless), whatever the settings say */
    private readonly alwaysSend = false,
  ) {
    chat.onInterrupt = () => this.runtime?.clearQueue()
  }

  private say(line: string): void {
    this.streams.stderr.write(`${line}\n`)
  }

  /** a line about something heard or ended, which comes at any moment */
  private tell(line: string): void {
    if (this.view.notice) this.view.notice(line)
    else this.say(line)
  }

  private get voice(): VoiceRuntime {
    const turns: VoiceTurns = {
      send: (text) =>
        new Promise((resolve, reject) => {
          let ended!: () => void
          const whenEnded = new Promise<void>((r) => (ended = r))
          let started = false
          this.view.sending?.()
          this.chat
            .spoken(text, (info) => {
              started = true
              resolve({ ...info, ended: whenEnded })
            })
            .then(
              () => {
                ended()
                if (!started) reject(new Error('its turn did not start'))
              },
              (e: unknown) => {
                ended()
                if (!started) reject(e instanceof Error ? e : new Error(String(e)))
              },
            )
        }),
      isRunning: () => this.chat.busy,
      idle: () => this.chat.whenIdle(),
    }
    return (this.runtime ??= new VoiceRuntime(
      {
        sources: () => this.tools.manager.sources(),
        settings: () => {
          const { server, finalUtterance } = this.app.settings.get().voice
          return { server, finalUtterance: this.alwaysSend ? 'send' : finalUtterance }
        },
        turns,
      },
      (e) => {
        switch (e.type) {
          case 'partial':
            return this.view.partial(e.text)
          case 'final':
            this.view.partial('')
            if (e.disposition === 'queued')
              this.tell(`(heard while answering; waits) “${stripControls(e.text)}”`)
            if (e.disposition === 'composer') this.view.composed?.(e.text)
            return
          case 'error':
            return this.tell(stripControls(e.message))
          case 'status':
            // voice mode ended by itself (the server died or closed the session)
            if (e.status.error && e.status.error !== this.lastError) {
              this.view.partial('')
              this.tell(stripControls(e.status.error))
              this.view.ended?.()
            }
            this.lastError = e.status.error
            return
        }
      },
    ))
  }

  /** starts listening; the message says why it could not */
  async start(source: VoiceSource | undefined): Promise<VoiceStatus> {
    return this.voice.start({ ...(source ? { source } : {}) })
  }

  status(): VoiceStatus | null {
    return this.runtime?.status() ?? null
  }

  async stop(): Promise<void> {
    await this.runtime?.stop()
    this.view.partial('')
  }

  /** stops listening for good (the server's session is closed) */
  async shutdown(): Promise<void> {
    await this.runtime?.shutdown()
  }

  /** `/voice start [microphone|loopback]`, `/voice status`, `/voice stop` */
  async command(action: string | undefined, source: string | undefined): Promise<void> {
    switch (action ?? 'status') {
      case 'start': {
        if (source !== undefined && source !== 'microphone' && source !== 'loopback')
          return this.say(`Listen to the microphone or loopback, not "${stripControls(source)}".`)
        try {
          const s = await this.start(source)
          return this.say(
            `Listening${s.source ? ` (${s.source})` : ''} with ${stripControls(s.server ?? '')}: each sentence you say is sent. /voice stop ends it.`,
          )
        } catch (e) {
          return this.say(stripControls((e as Error).message))
        }
      }
      case 'stop':
        if (!this.status()?.listening) return this.say('Voice input is off.')
        await this.stop()
        return this.say('Voice input is off.')
      case 'status':
        return this.say(this.describe())
      default:
        return this.say('Use /voice start [microphone|loopback], /voice status or /voice stop.')
    }
  }

  private describe(): string {
    const s = this.status()
    if (!s?.listening) {
      return s?.error ? `Voice input is off. ${stripControls(s.error)}` : 'Voice input is off.'
    }
    const waiting =
      s.queued.length > 0
        ? ` ${s.queued.length} sentence(s) wait for the answer: ${s.queued.map((q) => `“${stripControls(q)}”`).join(', ')}.`
        : ''
    return `Listening${s.source ? ` (${s.source})` : ''} with ${stripControls(s.server ?? '')}.${waiting}`
  }
}
