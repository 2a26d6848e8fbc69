/**
 * The provider and models of an assistant: a provider from the settings (or the default
 * one), and its model and utility model, typed or picked from the models it lists.
 */
import { useQuery } from '@tanstack/react-query'
import type { JSX } from 'react'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import { usePlatform } from '../../state/context'
import { call, keys } from '../../state/queries'
import { Field } from '../settings/Field'
import { fieldId, type AssistantFormState, type FormErrors } from './assistant-form'

type Patch = Partial<Pick<AssistantFormState, 'providerId' | 'model' | 'utilityModel'>>

export function ModelFields(props: {
  form: AssistantFormState
  errors: FormErrors
  settings: SettingsView
  onChange(patch: Patch): void
}): JSX.Element {
  const { bridge } = usePlatform()
  const { form, settings } = props
  const providerId = form.providerId || null
  const provider = settings.providers.find((p) => p.id === providerId) ?? null
  const models = useQuery({
    queryKey: keys.models(providerId),
    queryFn: () => call(bridge, 'providers.models', providerId ? { providerId } : {}),
    staleTime: 5 * 60_000,
    retry: false,
  })
  const active = settings.providers.find((p) => p.id === settings.activeProviderId)
  const whose = provider?.name ?? 'the default provider'
  const listHint = models.isPending
    ? `Asking ${whose} for its models…`
    : models.isError
      ? `Could not list the models of ${whose}: ${models.error.message} You can still type a model name.`
      : `${models.data.models.length} model${models.data.models.length === 1 ? '' : 's'} available.`
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
      <Field
        label="Model"
        id={fieldId('model')}
        error={props.errors.model}
        hint={`${listHint} Empty: ${fallbackModel ?? 'the provider’s default model'}.`}
      >
        {(ids) => (
          <input
            {...ids}
            list={listId}
            value={form.model}
            placeholder={fallbackModel ?? ''}
            onChange={(e) => props.onChange({ model: e.target.value })}
            autoComplete="off"
            spellCheck={false}
          />
        )}
      </Field>
      <Field
        label="Utility model"
        id={fieldId('utilityModel')}
        error={props.errors.utilityModel}
        hint="The model that summarizes long conversations and names chats. Empty: the provider’s utility model."
      >
        {(ids) => (
          <input
            {...ids}
            list={listId}
            value={form.utilityModel}
            onChange={(e) => props.onChange({ utilityModel: e.target.value })}
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
    </>
  )
}
