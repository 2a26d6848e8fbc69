/**
 * Voice input: what the window and the CLI are told about it. Cairn drives a
 * speech-to-text MCP server (see the README's "Voice input"); these types describe voice
 * mode as the engine runs it (`src-main/services/voice/`).
 */
import { z } from 'zod'
import type { ErrorInfo } from './errors'

export const VOICE_SOURCES = ['microphone', 'loopback'] as const
export const voiceSourceSchema = z.enum(VOICE_SOURCES)
export type VoiceSource = (typeof VOICE_SOURCES)[number]

/** what happens to a final utterance: sent as the user's message, or left in the composer */
export const FINAL_UTTERANCE_MODES = ['send', 'compose'] as const
export type FinalUtteranceMode = (typeof FINAL_UTTERANCE_MODES)[number]

export interface VoiceStatus {
  /** a speech-to-text session is open and polled */
  listening: boolean
  /** the voice server in use, while listening */
  server: string | null
  source: VoiceSource | null
  /** the chat final utterances go to; null: a new chat, made by the first one */
  sessionId: string | null
  /** final utterances waiting, in order, for the chat's running turn to end */
  queued: string[]
  /** why voice mode ended by itself (the server died, the session closed); null otherwise */
  error: string | null
}

export type VoiceEvent =
  | { type: 'status'; status: VoiceStatus }
  /** the utterance being spoken, as recognized so far (replaces the previous partial) */
  | { type: 'partial'; text: string; sessionId: string | null }
  /**
   * A final utterance. `queued`: waiting for the running turn (a `sent` follows);
   * `sent`: its turn has started (`sessionId` and `turnId` name it); `composer`: left in the
   * composer to edit (the settings' `voice.finalUtterance`).
   */
  | {
      type: 'final'
      text: string
      disposition: 'queued' | 'composer'
      sessionId: string | null
    }
  | { type: 'final'; text: string; disposition: 'sent'; sessionId: string; turnId: string }
  /** something voice mode could not do (a final that could not be sent, a failed stop) */
  | ({ type: 'error' } & ErrorInfo)
