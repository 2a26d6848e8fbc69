/** The system prompt: Cairn's own (null) or the user's text. */
import { useState, type FormEvent, type JSX } from 'react'
import { Field } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

const MAX = 100_000

export function SystemPromptForm(props: { saved: string | null }): JSX.Element {
  const [text, setText] = useState(props.saved ?? '')
  const [error, setError] = useState<string | null>(null)
  const saver = useSaveSettings()

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    if (text.length > MAX) {
      setError(
        `At most ${MAX.toLocaleString()} characters (this is ${text.length.toLocaleString()}).`,
      )
      return
    }
    setError(null)
    await saver.save({ systemPrompt: text.trim() ? text : null })
  }
  const reset = async (): Promise<void> => {
    setError(null)
    if (await saver.save({ systemPrompt: null })) setText('')
  }

  return (
    <form
      className="settings-form"
      aria-label="System prompt"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>System prompt</h3>
      <Field
        label="System prompt"
        error={error}
        hint={
          props.saved === null
            ? 'Cairn’s own prompt is used. Text here replaces it for new turns.'
            : 'Your prompt replaces Cairn’s own for new turns.'
        }
      >
        {(ids) => (
          <textarea
            {...ids}
            rows={6}
            value={text}
            onChange={(e) => {
              setText(e.target.value)
              saver.reset()
            }}
          />
        )}
      </Field>
      <SaveActions label="Save prompt" saver={saver}>
        <button type="button" onClick={() => void reset()} disabled={props.saved === null}>
          Reset to default
        </button>
      </SaveActions>
    </form>
  )
}
