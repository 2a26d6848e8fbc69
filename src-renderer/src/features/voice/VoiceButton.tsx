/** The composer's microphone: starts and stops voice input (pressed while listening). */
import type { JSX } from 'react'
import { useT } from '../../i18n'
import type { VoiceView } from './use-voice'

export function VoiceButton(props: { voice: VoiceView }): JSX.Element {
  const listening = props.voice.status?.listening === true
  const t = useT()
  return (
    <button
      type="button"
      className={listening ? 'voice-button listening' : 'voice-button'}
      aria-label={t('voice.input')}
      aria-pressed={listening}
      title={listening ? t('voice.stop') : t('voice.speak')}
      disabled={props.voice.busy}
      onClick={() => void props.voice.toggle()}
    >
      <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
        <rect x="9" y="3" width="6" height="11" rx="3" fill="currentColor" />
        <path
          d="M6 11a6 6 0 0 0 12 0M12 17v4M9 21h6"
          fill="none"
          stroke="currentColor"
          strokeWidth="2"
          strokeLinecap="round"
        />
      </svg>
    </button>
  )
}
