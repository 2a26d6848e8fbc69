/**
 * The model a new chat uses with the default provider: typed, or picked from the models
 * the provider lists. Empty: the provider's own default model.
 */
import { useState, type FormEvent, type JSX } from 'react'
import type { ProviderView } from '../../../../src-preload/contract/app-dto'
import { TextField } from '../../ui/forms/Field'
import { ModelOptions, useModelList } from '../../ui/forms/model-list'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

export function DefaultModelForm(props: {
  provider: ProviderView
  activeModel: string | null
}): JSX.Element {
  const { provider } = props
  const [model, setModel] = useState(props.activeModel ?? '')
  const [error, setError] = useState<string | null>(null)
  const saver = useSaveSettings()
  const { models, status, listed } = useModelList(provider.id, provider.name)
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

  const hint = listed
    ? `${status} Empty: ${provider.defaultModel ?? 'the provider’s model if it serves only one'}.`
    : status

  return (
    <form
      className="settings-form default-model"
      aria-label="Default model"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <TextField
        label={`Default model (${provider.name})`}
        error={error}
        hint={hint}
        list={listId}
        value={model}
        placeholder={provider.defaultModel ?? ''}
        onValue={(value) => {
          setModel(value)
          setError(null)
          saver.reset()
        }}
        autoComplete="off"
        spellCheck={false}
      />
      <ModelOptions id={listId} models={models.data?.models} />
      <SaveActions label="Save model" saver={saver} />
    </form>
  )
}
