/**
 * The provider and models of an assistant: a provider from the settings (or the default
 * one), and its model and utility model, typed or picked from the models it lists.
 */
import type { JSX } from 'react'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import { Field, TextField } from '../../ui/forms/Field'
import { ModelOptions, useModelList } from '../../ui/forms/model-list'
import { fieldId, type AssistantFormState, type FormErrors } from './assistant-form'

type Patch = Partial<Pick<AssistantFormState, 'providerId' | 'model' | 'utilityModel'>>

export function ModelFields(props: {
  form: AssistantFormState
  errors: FormErrors
  settings: SettingsView
  onChange(patch: Patch): void
}): JSX.Element {
  const { form, settings } = props
  const providerId = form.providerId || null
  const provider = settings.providers.find((p) => p.id === providerId) ?? null
  const active = settings.providers.find((p) => p.id === settings.activeProviderId)
  const { models, status } = useModelList(providerId, provider?.name ?? 'the default provider')
  const fallbackModel = provider?.defaultModel ?? models.data?.defaultModel ?? null
  const listId = 'assistant-models'
  // a provider the assistant names that the settings no longer have stays visible
  const unknown = providerId !== null && provider === null

  return (
    <>
      <Field
        label="Provider"
        id={fieldId('providerId')}
        error={
          props.errors.providerId ??
          (unknown ? `There is no provider “${providerId}” in the settings now.` : null)
        }
      >
        {(ids) => (
          <select
            {...ids}
            value={form.providerId}
            onChange={(e) => props.onChange({ providerId: e.target.value })}
          >
            <option value="">The default provider{active ? ` (now ${active.name})` : ''}</option>
            {settings.providers.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
            {unknown ? <option value={form.providerId}>{form.providerId}</option> : null}
          </select>
        )}
      </Field>
      <TextField
        label="Model"
        id={fieldId('model')}
        error={props.errors.model}
        hint={`${status} Empty: ${fallbackModel ?? 'the provider’s default model'}.`}
        list={listId}
        value={form.model}
        placeholder={fallbackModel ?? ''}
        onValue={(model) => props.onChange({ model })}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        label="Utility model"
        id={fieldId('utilityModel')}
        error={props.errors.utilityModel}
        hint="The model that summarizes long conversations and names chats. Empty: the provider’s utility model."
        list={listId}
        value={form.utilityModel}
        onValue={(utilityModel) => props.onChange({ utilityModel })}
        autoComplete="off"
        spellCheck={false}
      />
      <ModelOptions id={listId} models={models.data?.models} />
    </>
  )
}
