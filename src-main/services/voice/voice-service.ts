/**
 * Voice input in a UI host (the desktop app, browser mode): the runtime on the host's MCP
 * servers, its finals sent through the turn manager, its events published to the window.
 * Stopping a turn in the chat drops the finals queued behind it; deleting the chat ends
 * voice mode for it.
 */
import type { AppEvent } from '../../../src-preload/contract/app-events'
import type { AppServices } from '../host/app-services'
import type { EventHub } from '../host/event-hub'
import type { ToolRuntime } from '../../core/service-ports'
import type { TurnManager } from '../turns/turn-manager'
import { VoiceRuntime, type VoiceTurns } from './voice-runtime'

export function startVoiceService(deps: {
  app: AppServices
  tools: ToolRuntime
  turns: TurnManager
  hub: EventHub
}): VoiceRuntime {
  const { turns, hub } = deps
  const voiceTurns: VoiceTurns = {
    async send(text, sessionId) {
      // a new chat whose first turn failed before any answer was not kept: start another
      const chat = sessionId && deps.app.store.getSession(sessionId) ? sessionId : null
      const started = await turns.send({ text, ...(chat ? { sessionId: chat } : {}) })
      return { ...started, ended: turns.ended(started.turnId) }
    },
    isRunning: (sessionId) => turns.isRunning(sessionId),
    idle: (sessionId) => turns.idle(sessionId),
  }
  const voice = new VoiceRuntime(
    {
      sources: () => deps.tools.manager.sources(),
      settings: () => deps.app.settings.get().voice,
      turns: voiceTurns,
    },
    (payload) => hub.publish({ event: 'voice', payload }),
  )
  hub.observe((e: AppEvent) => {
    // Stop in the chat voice input sends to: what was queued behind the turn is dropped
    if (
      e.event === 'agent' &&
      e.payload.type === 'turn_end' &&
      e.payload.reason === 'aborted' &&
      e.payload.sessionId === voice.status().sessionId
    )
      voice.clearQueue()
    else if (e.event === 'sessions.changed' && e.payload.deleted && e.payload.sessionId)
      void voice.forgetSession(e.payload.sessionId)
  })
  return voice
}
