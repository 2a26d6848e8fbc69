import { ExpectedError } from '../../core/errors'
import type { Handlers } from '../../ipc/router'
import { SttResultError } from '../voice/stt-results'
import type { VoiceRuntime } from '../voice/voice-runtime'
import { VoiceServerError } from '../voice/voice-tools'

type VoiceRoutes = 'voice.start' | 'voice.stop' | 'voice.status'

export function voiceHandlers(voice: VoiceRuntime): Pick<Handlers, VoiceRoutes> {
  return {
    'voice.start': async ({ sessionId, source }) => {
      try {
        return await voice.start({
          ...(sessionId !== undefined ? { sessionId } : {}),
          ...(source ? { source } : {}),
        })
      } catch (e) {
        if (e instanceof VoiceServerError) throw new ExpectedError('not_found', e.message)
        if (e instanceof SttResultError)
          throw new ExpectedError(
            'unavailable',
            `The voice server could not start listening: ${e.message}`,
          )
        throw new ExpectedError('unavailable', e instanceof Error ? e.message : String(e))
      }
    },
    'voice.stop': async () => voice.stop(),
    'voice.status': async () => voice.status(),
  }
}
