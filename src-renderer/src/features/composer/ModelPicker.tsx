/**
 * The chat's model, beside the composer: the provider's models to choose from. A new chat
 * takes the pick with its first message; a chat that exists switches from its next turn.
 */
import { useState, type JSX } from 'react'
import { useT } from '../../i18n'
import { useLive } from '../../state/context'
import { useErrorText } from '../../ui/error-text'
import { useModels } from '../../state/queries'
import { useChatModel } from './use-chat-model'

export function ModelPicker(): JSX.Element {
  const setModel = useLive((s) => s.setModel)
  const models = useModels()
  const [error, setError] = useState<string | null>(null)
  const current = useChatModel()
  const t = useT()
  const errorText = useErrorText()
  const options = [...(models.data?.models ?? [])]
  if (current && !options.includes(current)) options.unshift(current)
  const title = models.isError
    ? t('composer.modelsFailed', { error: errorText(models.error) })
    : (error ?? t('composer.modelTitle'))
  return (
    <label className="model-picker" title={title}>
      <span className="visually-hidden">{t('composer.model')}</span>
      <select
        aria-label={t('composer.model')}
        value={current ?? ''}
        disabled={options.length === 0}
        onChange={(e) => {
          const model = e.target.value
          if (model) void setModel(model).then(setError)
        }}
      >
        {current ? null : (
          <option value="">
            {models.isPending ? t('composer.loadingModels') : t('composer.defaultModel')}
          </option>
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
