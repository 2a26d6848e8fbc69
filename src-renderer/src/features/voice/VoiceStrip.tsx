/**
 * What voice input is doing, above the message box: "Listening" (and through which
 * server), the words heard so far, the finals waiting for the running answer, and what
 * went wrong. Server text is shown as text, never as markup.
 */
import type { JSX } from 'react'
import type { VoiceView } from './use-voice'
import './voice.css'

export function VoiceStrip(props: {
  voice: VoiceView
  sessionId: string | null
}): JSX.Element | null {
  const { status, partial, error } = props.voice
  const listening = status?.listening === true
  // what is heard and queued belongs to the chat voice input sends to
  const here = status !== null && status.sessionId === props.sessionId
  const queued = here ? (status?.queued ?? []) : []
  const heard =
    partial && partial.sessionId === props.sessionId && partial.text ? partial.text : null
  if (!listening && queued.length === 0 && !error) return null
  return (
    <div className="voice-strip" aria-label="Voice input status">
      {listening ? (
        <p className="voice-listening" role="status">
          <span className="voice-dot" aria-hidden="true" />
          Listening{status?.server ? ` (${status.server})` : ''}
          {here ? '' : ' — for another chat'}
        </p>
      ) : null}
      {heard ? (
        <p className="voice-partial" aria-live="polite" aria-label="Heard so far">
          {heard}
        </p>
      ) : null}
      {queued.length > 0 ? (
        <div className="voice-queue">
          <span className="meta">Sent after this answer (Stop drops them):</span>
          <ol aria-label="Queued voice messages">
            {queued.map((q, i) => (
              <li key={i}>{q}</li>
            ))}
          </ol>
        </div>
      ) : null}
      {error ? (
        <p className="error voice-error" role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}
