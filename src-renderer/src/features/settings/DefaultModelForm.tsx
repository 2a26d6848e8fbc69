/**
 * The model a new chat uses with the default provider: typed, or picked from the models
 * the provider lists. Empty: the provider's own default model.
 */
import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent, type JSX } from 'react'
import type { ProviderView } from '../../../../src-preload/contract/app-dto'
import { usePlatform } from '../../state/context'
import { call, keys } from '../../state/queries'
import { Field } from './Field'
import { SaveStatus } from './SaveStatus'
import { useSaveSettings } from './use-save-settings'

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

export function DefaultModelForm(props: {
  provider: ProviderView
  activeModel: string | null
}): JSX.Element {
  const { bridge } = usePlatform()
  const { provider } = props
  const [model, setModel] = useState(props.activeModel ?? '')
  const [error, setError] = useState<string | null>(null)
  const saver = useSaveSettings()
  const models = useQuery({
    queryKey: keys.models(provider.id),
    queryFn: () => call(bridge, 'providers.models', { providerId: provider.id }),
    staleTime: 5 * 60_000,
    retry: false,
  })
  const listId = `models-of-${provider.id}`

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const value = model.trim()
    if (value.length > 500) {
      setError('At most 500 characters.')
      return
    }
    await saver.save({ activeModel: value || null })
  }

  const hint = models.isPending
    ? `Asking ${provider.name} for its models…`
    : models.isError
      ? `Could not list the models of ${provider.name}: ${models.error.message} You can still type a model name.`
      : `${plural(models.data.models.length, 'model')} available. Empty: ${
          provider.defaultModel ?? 'the provider’s model if it serves only one'
        }.`

  return (
    <form
      className="settings-form default-model"
      aria-label="Default model"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <Field label={`Default model (${provider.name})`} error={error} hint={hint}>
        {(ids) => (
          <input
            {...ids}
            list={listId}
            value={model}
            placeholder={provider.defaultModel ?? ''}
            onChange={(e) => {
              setModel(e.target.value)
              setError(null)
              saver.reset()
            }}
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </Field>
      <datalist id={listId}>
        {(models.data?.models ?? []).map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <div className="form-actions">
        <button type="submit" className="primary" disabled={saver.state === 'saving'}>
          Save model
        </button>
        <SaveStatus saver={saver} />
      </div>
    </form>
  )
}
