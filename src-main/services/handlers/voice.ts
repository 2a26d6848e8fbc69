import type { Handlers } from '../../ipc/router'
import type { VoiceRuntime } from '../voice/voice-runtime'

type VoiceRoutes = 'voice.start' | 'voice.stop' | 'voice.status'

export function voiceHandlers(voice: VoiceRuntime): Pick<Handlers, VoiceRoutes> {
  return {
    // no voice server (not_found), several (conflict), or it could not start (unavailable)
    'voice.start': async ({ sessionId, source }) =>
      voice.start({
        ...(sessionId !== undefined ? { sessionId } : {}),
        ...(source ? { source } : {}),
      }),
    'voice.stop': async () => voice.stop(),
    'voice.status': async () => voice.status(),
  }
}
