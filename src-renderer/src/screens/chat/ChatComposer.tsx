/** The chat's composer with voice input: the microphone in its bar, what is heard above the box. */
import type { JSX } from 'react'
import { Composer } from '../../features/composer/Composer'
import { useVoice } from '../../features/voice/use-voice'
import { VoiceButton } from '../../features/voice/VoiceButton'
import { VoiceStrip } from '../../features/voice/VoiceStrip'
import { useLive } from '../../state/context'

export function ChatComposer(): JSX.Element {
  const voice = useVoice()
  const currentId = useLive((s) => s.currentId)
  return (
    <Composer
      above={<VoiceStrip voice={voice} sessionId={currentId} />}
      controls={<VoiceButton voice={voice} />}
    />
  )
}
