/**
 * Creating or editing one assistant: every field of it in one form, saved in one request or
 * not at all (each problem beside its field), with the tools the model will see beside it.
 */
import { useEffect, useState, type FormEvent, type JSX } from 'react'
import type { Assistant } from '../../../../src-preload/contract/assistants'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import { usePlatform } from '../../state/context'
import { call, errorInfoOf } from '../../state/queries'
import { Field, stillWrong, TextField } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useMcpServers } from '../../state/mcp-servers'
import type { SaveState } from '../../ui/forms/use-save-settings'
import {
  checkForm,
  FIELD_ORDER,
  fieldId,
  refusalErrors,
  previewDraft,
  type AssistantFormState,
  type FormErrors,
  type FormField,
} from './assistant-form'
import { putAssistant, useBuiltinTools } from '../../state/assistant-queries'
import { ModelFields } from './ModelFields'
import { RunFields } from './RunFields'
import { ToolPreview } from './ToolPreview'
import { ToolsChoice } from './ToolsChoice'

export interface AssistantFormProps {
  /** the assistant edited; null when creating one */
  editing: Assistant | null
  initial: AssistantFormState
  /** the other assistants' names (a name is unique) */
  otherNames: readonly string[]
  settings: SettingsView
  /** the form closes: with the saved assistant's name, or null (cancelled) */
  onDone(saved: string | null): void
}

export function AssistantForm(props: AssistantFormProps): JSX.Element {
  const builtins = useBuiltinTools()
  const servers = useMcpServers()
  if (!builtins.data) return <SettingsLoading query={builtins} what="the built-in tools" />
  return <FormBody {...props} builtins={builtins.data} servers={servers.data?.servers ?? []} />
}

function FormBody(
  props: AssistantFormProps & {
    builtins: NonNullable<ReturnType<typeof useBuiltinTools>['data']>
    servers: NonNullable<ReturnType<typeof useMcpServers>['data']>['servers']
  },
): JSX.Element {
  const { bridge, client } = usePlatform()
  const { editing, settings } = props
  const [form, setForm] = useState<AssistantFormState>(props.initial)
  const [errors, setErrors] = useState<FormErrors>({})
  const [saver, setSaver] = useState<SaveState>({ state: 'idle', error: null })
  useEffect(() => document.getElementById(fieldId('name'))?.focus(), [])
  const checked = checkForm(form, props.otherNames)

  const set = (patch: Partial<AssistantFormState>): void => {
    const next = { ...form, ...patch }
    setForm(next)
    setSaver({ state: 'idle', error: null })
    setErrors((shown) => stillWrong(shown, checkForm(next, props.otherNames).errors ?? {}))
  }
  const problem = (field: FormField, message: string): void => {
    setErrors((old) => ({ ...old, [field]: message }))
    document.getElementById(fieldId(field))?.focus()
  }

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    if (!checked.draft) {
      setErrors(checked.errors)
      const first = FIELD_ORDER.find((f) => checked.errors[f])
      if (first) document.getElementById(fieldId(first))?.focus()
      return
    }
    setSaver({ state: 'saving', error: null })
    try {
      const saved = editing
        ? await call(bridge, 'assistants.update', { id: editing.id, assistant: checked.draft })
        : await call(bridge, 'assistants.create', { assistant: checked.draft })
      putAssistant(client, saved)
      setSaver({ state: 'saved', error: null })
      props.onDone(saved.name)
    } catch (err) {
      // a refusal the host names fields for is shown beside them; another one beside Save
      const refusal = errorInfoOf(err)
      const refused = refusalErrors(refusal)
      const first = FIELD_ORDER.find((f) => refused[f])
      if (first) {
        setSaver({ state: 'idle', error: null })
        setErrors((old) => ({ ...old, ...refused }))
        problem(first, refused[first]!)
      } else setSaver({ state: 'error', error: refusal.message })
    }
  }

  const title = editing ? `Edit ${editing.name}` : 'New assistant'
  return (
    <div className="assistant-editor">
      <form
        className="settings-form assistant-form"
        aria-label={title}
        onSubmit={(e) => void submit(e)}
        noValidate
      >
        <h3>{title}</h3>
        <AboutFields form={form} errors={errors} onChange={set} />
        <ModelFields form={form} errors={errors} settings={settings} onChange={set} />
        <ToolsChoice
          tools={form.tools}
          builtins={props.builtins.tools}
          disabledBuiltins={settings.builtinTools.disabled}
          servers={props.servers}
          {...(errors.tools ? { error: errors.tools } : {})}
          onChange={(tools) => set({ tools })}
        />
        <RunFields
          form={form}
          errors={errors}
          settings={settings}
          fallbackWorkspace={props.builtins.defaultWorkspace}
          onChange={set}
          onProblem={problem}
        />
        <SaveActions label="Save assistant" saver={saver}>
          <button type="button" onClick={() => props.onDone(null)}>
            Cancel
          </button>
        </SaveActions>
      </form>
      <ToolPreview draft={previewDraft(form, checked.draft)} />
    </div>
  )
}

/** its name, what it is for, and its own system prompt or the settings' */
function AboutFields(props: {
  form: AssistantFormState
  errors: FormErrors
  onChange(patch: Partial<AssistantFormState>): void
}): JSX.Element {
  const { form, errors, onChange: set } = props
  return (
    <>
      <TextField
        label="Name"
        id={fieldId('name')}
        error={errors.name}
        value={form.name}
        onValue={(name) => set({ name })}
        autoComplete="off"
      />
      <TextField
        label="Description"
        id={fieldId('description')}
        error={errors.description}
        hint="Optional: what it is for, shown in the list."
        value={form.description}
        onValue={(description) => set({ description })}
        autoComplete="off"
      />
      <label className="check-option">
        <input
          type="checkbox"
          checked={!form.ownPrompt}
          onChange={(e) => set({ ownPrompt: !e.target.checked })}
        />
        Use the system prompt from the settings
      </label>
      {form.ownPrompt ? (
        <Field
          label="System prompt"
          id={fieldId('systemPrompt')}
          error={errors.systemPrompt}
          hint="Sent before every conversation of this assistant. Empty: no system prompt."
        >
          {(ids) => (
            <textarea
              {...ids}
              rows={6}
              value={form.systemPrompt}
              onChange={(e) => set({ systemPrompt: e.target.value })}
            />
          )}
        </Field>
      ) : null}
    </>
  )
}
