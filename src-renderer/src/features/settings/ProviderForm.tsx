/** Adding or editing one provider: name, id, base URL, default model, API key, a connection test. */
import { useEffect, useState, type FormEvent, type JSX } from 'react'
import type { ProviderView, SettingsView } from '../../../../src-preload/contract/app-dto'
import { ConnectionTest } from './ConnectionTest'
import { stillWrong, TextField } from '../../ui/forms/Field'
import type { ProviderPreset } from '../../state/provider-presets'
import {
  checkDraft,
  draftPatch,
  httpURLProblem,
  type DraftErrors,
  type ProviderDraft,
} from './provider-draft'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { ServerOptions } from './ServerOptions'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

export interface ProviderFormProps {
  settings: SettingsView
  /** the provider edited; null when adding */
  editing: ProviderView | null
  initial: ProviderDraft
  preset?: ProviderPreset
  /** the form closes: with the saved provider's name, or null (cancelled) */
  onDone: (saved: string | null) => void
}

export function ProviderForm(props: ProviderFormProps): JSX.Element {
  const { settings, editing } = props
  const [d, setD] = useState<ProviderDraft>(props.initial)
  const [errors, setErrors] = useState<DraftErrors>({})
  const saver = useSaveSettings()
  const otherIds = settings.providers.filter((p) => p.id !== editing?.id).map((p) => p.id)
  const hasKey = editing?.apiKey != null && !d.removeKey
  useEffect(() => document.getElementById('provider-name')?.focus(), [])

  const set = (patch: Partial<ProviderDraft>): void => {
    setD((old) => ({ ...old, ...patch }))
    saver.reset()
    setErrors((shown) => stillWrong(shown, checkDraft({ ...d, ...patch }, otherIds)))
  }

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const found = checkDraft(d, otherIds)
    setErrors(found)
    const first = Object.keys(found)[0]
    if (first) {
      document.getElementById(`provider-${first}`)?.focus()
      return
    }
    const saved = await saver.save(draftPatch(d, settings, editing?.id ?? null))
    if (saved) props.onDone(d.name.trim())
  }

  const title = editing ? `Edit ${editing.name}` : `Add ${props.preset?.name ?? 'a provider'}`
  return (
    <form
      className="settings-form provider-form"
      aria-label={title}
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>{title}</h3>
      <TextField
        label="Name"
        id="provider-name"
        error={errors.name}
        value={d.name}
        onValue={(name) => set({ name })}
        autoComplete="off"
      />
      <TextField
        label="ID"
        id="provider-id"
        error={errors.id}
        hint={
          editing
            ? 'The id of a saved provider stays the same.'
            : 'How commands and the settings file name it.'
        }
        value={d.id}
        readOnly={editing !== null}
        onValue={(id) => set({ id })}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        label="Base URL"
        id="provider-baseURL"
        error={errors.baseURL}
        hint="The OpenAI-compatible endpoint, usually ending in /v1."
        type="url"
        value={d.baseURL}
        placeholder="https://…/v1"
        onValue={(baseURL) => set({ baseURL })}
        autoComplete="off"
        spellCheck={false}
      />
      <ModelFields draft={d} errors={errors} set={set} />
      <ApiKeyField draft={d} editing={editing} preset={props.preset} set={set} />
      <ConnectionTest
        baseURL={d.baseURL}
        apiKey={d.apiKey}
        providerId={hasKey ? (editing?.id ?? null) : null}
        urlProblem={httpURLProblem(d.baseURL)}
        onPick={(m) => set({ defaultModel: m })}
      />
      <ServerOptions draft={d} errors={errors} urlProblem={httpURLProblem(d.baseURL)} set={set} />
      <SaveActions label="Save provider" saver={saver}>
        <button type="button" onClick={() => props.onDone(null)}>
          Cancel
        </button>
      </SaveActions>
    </form>
  )
}

type Set = (patch: Partial<ProviderDraft>) => void

/** the model a new chat uses with this provider, and the one that writes summaries */
function ModelFields(props: { draft: ProviderDraft; errors: DraftErrors; set: Set }): JSX.Element {
  const { draft: d, errors, set } = props
  return (
    <>
      <TextField
        label="Default model"
        id="provider-defaultModel"
        error={errors.defaultModel}
        hint="Optional: the model a new chat uses with this provider."
        value={d.defaultModel}
        onValue={(defaultModel) => set({ defaultModel })}
        autoComplete="off"
        spellCheck={false}
      />
      <TextField
        label="Utility model"
        id="provider-utilityModel"
        error={errors.utilityModel}
        hint="Optional: a smaller, cheaper model of this provider that summarizes long conversations. Empty: the chat’s own model."
        value={d.utilityModel}
        onValue={(utilityModel) => set({ utilityModel })}
        autoComplete="off"
        spellCheck={false}
      />
    </>
  )
}

/** the API key: a saved one is kept when this is left empty, or removed on request */
function ApiKeyField(props: {
  draft: ProviderDraft
  editing: ProviderView | null
  preset: ProviderPreset | undefined
  set: Set
}): JSX.Element {
  const { draft: d, editing, preset, set } = props
  const hasKey = editing?.apiKey != null && !d.removeKey
  return (
    <>
      <TextField
        label="API key"
        hint={
          <>
            {hasKey
              ? `A key is saved (${editing?.apiKey}). Leave this empty to keep it.`
              : d.removeKey
                ? 'The saved key will be removed when you save.'
                : preset?.needsKey === false
                  ? 'Local servers usually need none.'
                  : 'Stored on this computer only, never shown again.'}
            {preset?.keyHint ? ` Get one at ${preset.keyHint}.` : ''}
          </>
        }
        type="password"
        name="api-key"
        value={d.apiKey}
        onValue={(apiKey) => set({ apiKey, removeKey: false })}
        autoComplete="new-password"
        spellCheck={false}
      />
      {editing?.apiKey != null ? (
        <button
          type="button"
          className="action"
          aria-pressed={d.removeKey}
          onClick={() => set({ removeKey: !d.removeKey, apiKey: '' })}
        >
          {d.removeKey ? 'Keep saved key' : 'Remove key'}
        </button>
      ) : null}
    </>
  )
}
