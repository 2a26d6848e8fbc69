/**
 * How an assistant's turns run: temperature, permission policy, limits and the workspace
 * folder of its new chats. Each empty field means "what the settings say".
 */
import type { JSX } from 'react'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import type { PermissionPolicy } from '../../../../src-preload/contract/dto'
import { Field, TextField } from '../../ui/forms/Field'
import { FolderField } from '../../ui/forms/FolderField'
import { fieldId, type AssistantFormState, type FormErrors } from './assistant-form'
import { POLICY_LABELS } from './policy-labels'

type Patch = Partial<
  Pick<
    AssistantFormState,
    'temperature' | 'permissionPolicy' | 'maxIterations' | 'deadlineSeconds' | 'workspace'
  >
>

const POLICIES = POLICY_LABELS

export function RunFields(props: {
  form: AssistantFormState
  errors: FormErrors
  settings: SettingsView
  /** the built-in default workspace (when the settings set none) */
  fallbackWorkspace: string
  onChange(patch: Patch): void
  /** a problem found outside the fields (the folder picker failed) */
  onProblem(field: 'workspace', message: string): void
}): JSX.Element {
  const { form, errors, settings } = props
  const workspaceFallback = settings.defaultWorkspace ?? props.fallbackWorkspace
  return (
    <>
      <TextField
        label="Temperature"
        id={fieldId('temperature')}
        error={errors.temperature}
        hint="From 0 (steady) to 2 (varied). Empty: the server’s default."
        type="number"
        inputMode="decimal"
        min={0}
        max={2}
        step="any"
        value={form.temperature}
        onValue={(temperature) => props.onChange({ temperature })}
      />
      <Field
        label="Permission policy"
        id={fieldId('permissionPolicy')}
        error={errors.permissionPolicy}
      >
        {(ids) => (
          <select
            {...ids}
            value={form.permissionPolicy}
            onChange={(e) =>
              props.onChange({ permissionPolicy: e.target.value as PermissionPolicy | '' })
            }
          >
            <option value="">
              As in the settings (now: {POLICIES[settings.permissionPolicy].toLowerCase()})
            </option>
            {(Object.keys(POLICIES) as PermissionPolicy[]).map((p) => (
              <option key={p} value={p}>
                {POLICIES[p]}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="limit-grid">
        <TextField
          label="Model calls per turn"
          id={fieldId('maxIterations')}
          error={errors.maxIterations}
          hint={`Empty: as in the settings (${settings.limits.maxIterations}).`}
          type="number"
          min={1}
          step={1}
          value={form.maxIterations}
          placeholder={String(settings.limits.maxIterations)}
          onValue={(maxIterations) => props.onChange({ maxIterations })}
        />
        <TextField
          label="Time limit per turn (seconds)"
          id={fieldId('deadlineSeconds')}
          error={errors.deadlineSeconds}
          hint={`Empty: as in the settings (${settings.limits.deadlineMs / 1000}).`}
          type="number"
          min={1}
          step="any"
          value={form.deadlineSeconds}
          placeholder={String(settings.limits.deadlineMs / 1000)}
          onValue={(deadlineSeconds) => props.onChange({ deadlineSeconds })}
        />
      </div>
      <FolderField
        label="Workspace folder"
        id={fieldId('workspace')}
        error={errors.workspace}
        hint={`Where its new chats’ file tools work. Empty: ${workspaceFallback}`}
        value={form.workspace}
        placeholder={workspaceFallback}
        pickTitle="Choose the assistant’s workspace folder"
        onValue={(workspace) => props.onChange({ workspace })}
        onPickError={(message) => props.onProblem('workspace', message)}
      />
    </>
  )
}
