/**
 * The chat's model, beside the composer: the provider's models to choose from. A new chat
 * takes the pick with its first message; a chat that exists switches from its next turn.
 */
import { useState, type JSX } from 'react'
import { useLive } from '../../state/context'
import { emptyLive, NEW_CHAT } from '../../state/live-store'
import { useModels, useSession, useSettings } from '../../state/queries'

export function ModelPicker(): JSX.Element {
  const sessionId = useLive((s) => s.currentId)
  const picked = useLive((s) => (s.sessions[NEW_CHAT] ?? emptyLive).model)
  const setModel = useLive((s) => s.setModel)
  const session = useSession(sessionId)
  const settings = useSettings()
  const models = useModels()
  const [error, setError] = useState<string | null>(null)
  const current =
    (sessionId ? session.data?.model : picked) ??
    models.data?.defaultModel ??
    settings.data?.activeModel ??
    null
  const options = [...(models.data?.models ?? [])]
  if (current && !options.includes(current)) options.unshift(current)
  const title = models.isError
    ? `The provider did not list its models: ${models.error.message}`
    : (error ?? 'The model this chat uses')
  return (
    <label className="model-picker" title={title}>
      <span className="visually-hidden">Model</span>
      <select
        aria-label="Model"
        value={current ?? ''}
        disabled={options.length === 0}
        onChange={(e) => {
          const model = e.target.value
          if (model) void setModel(model).then(setError)
        }}
      >
        {current ? null : (
          <option value="">{models.isPending ? 'Loading models…' : 'Default model'}</option>
        )}
        {options.map((m) => (
          <option key={m} value={m}>
            {m}
          </option>
        ))}
      </select>
    </label>
  )
}
