/**
 * Voice input as the window sees it: the host's voice status, the partial utterance being
 * heard, and what went wrong. Where a final goes (a new chat opened, a chat's box filled)
 * is the live store's, so it is not lost while the composer is not shown.
 */
import { useCallback, useEffect, useState } from 'react'
import type { VoiceEvent, VoiceStatus } from '../../../../src-preload/contract/voice'
import { usePlatform } from '../../state/context'

export interface VoiceView {
  status: VoiceStatus | null
  /** the utterance being heard, for the chat it goes to */
  partial: { text: string; sessionId: string | null } | null
  /** why voice input could not start, or stopped, or could not send a final */
  error: string | null
  busy: boolean
  toggle(): Promise<void>
}

export function useVoice(): VoiceView {
  const { bridge, live } = usePlatform()
  const [status, setStatus] = useState<VoiceStatus | null>(null)
  const [partial, setPartial] = useState<VoiceView['partial']>(null)
  const [error, setError] = useState<string | null>(null)
  const [busy, setBusy] = useState(false)

  useEffect(() => {
    let gone = false
    void bridge.request('voice.status', {}).then((r) => {
      if (!gone && r.ok) setStatus(r.data)
    })
    const onVoice = (e: VoiceEvent): void => {
      if (e.type === 'status') {
        setStatus(e.status)
        if (e.status.error) setError(e.status.error)
        if (!e.status.listening) setPartial(null)
      } else if (e.type === 'partial') {
        setPartial({ text: e.text, sessionId: e.sessionId })
      } else if (e.type === 'error') {
        setError(e.message)
      } else {
        // the final itself is the live store's (it opens the new chat, or fills the box)
        setPartial(null)
      }
    }
    bridge.on('voice', onVoice)
    return () => {
      gone = true
      bridge.off('voice', onVoice)
    }
  }, [bridge, live])

  const toggle = useCallback(async (): Promise<void> => {
    setBusy(true)
    setError(null)
    try {
      const r = status?.listening
        ? await bridge.request('voice.stop', {})
        : await bridge.request('voice.start', { sessionId: live.getState().currentId })
      if (r.ok) setStatus(r.data)
      else setError(r.error.message)
    } finally {
      setBusy(false)
    }
  }, [bridge, live, status?.listening])

  return { status, partial, error, busy, toggle }
}
