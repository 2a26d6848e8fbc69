/**
 * The default workspace folder: an absolute path, typed or (where the host can show a
 * folder picker) chosen. Empty: the built-in default.
 */
import { useState, type FormEvent, type JSX } from 'react'
import { FolderField } from '../../ui/forms/FolderField'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'
import { absolutePathProblem } from '../../ui/forms/absolute-path'

export function WorkspaceForm(props: { saved: string | null; fallback: string }): JSX.Element {
  const [value, setValue] = useState(props.saved ?? '')
  const [error, setError] = useState<string | null>(null)
  const saver = useSaveSettings()

  const change = (v: string): void => {
    setValue(v)
    saver.reset()
    if (error) setError(absolutePathProblem(v.trim()))
  }
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const v = value.trim()
    const problem = absolutePathProblem(v)
    setError(problem)
    if (problem) return
    await saver.save({ defaultWorkspace: v || null })
  }

  return (
    <form
      className="settings-form"
      aria-label="Workspace"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>Workspace</h3>
      <FolderField
        label="Default workspace folder"
        error={error}
        hint={`Where new chats’ file tools work. Empty: ${props.fallback}`}
        value={value}
        placeholder={props.fallback}
        pickTitle="Choose the default workspace folder"
        onValue={change}
        onPickError={setError}
      />
      <SaveActions label="Save workspace" saver={saver} />
    </form>
  )
}
