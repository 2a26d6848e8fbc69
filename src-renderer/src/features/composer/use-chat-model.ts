/**
 * The model the chat on screen uses: a session's own, else the one picked for a new chat,
 * else the model of the assistant it starts with, else the provider's default, else the
 * settings' (null: none is known yet).
 */
import { useLive } from '../../state/context'
import { emptyLive, NEW_CHAT } from '../../state/live-store'
import { useModels, useSession, useSettings } from '../../state/queries'
import { useAssistants } from '../../state/assistant-queries'

export function useChatModel(): string | null {
  const sessionId = useLive((s) => s.currentId)
  const picked = useLive((s) => (s.sessions[NEW_CHAT] ?? emptyLive).model)
  const session = useSession(sessionId)
  const pickedAssistant = useLive((s) => (s.sessions[NEW_CHAT] ?? emptyLive).assistant)
  const list = useAssistants().data
  const starts = list?.assistants.find((a) => a.id === (pickedAssistant ?? list.defaultId))
  const settings = useSettings()
  const models = useModels()
  return (
    (sessionId ? session.data?.model : (picked ?? starts?.model)) ??
    models.data?.defaultModel ??
    settings.data?.activeModel ??
    null
  )
}
