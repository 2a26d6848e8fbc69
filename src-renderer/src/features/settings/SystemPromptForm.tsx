/** The system prompt: Cairn's own (null) or the user's text. */
import { useState, type FormEvent, type JSX } from 'react'
import { useFormat } from '../../i18n/format'
import { useT } from '../../i18n'
import { Field } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

const MAX = 100_000

export function SystemPromptForm(props: { saved: string | null }): JSX.Element {
  const [text, setText] = useState(props.saved ?? '')
  const [error, setError] = useState<string | null>(null)
  const saver = useSaveSettings()
  const t = useT()
  const format = useFormat()

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    if (text.length > MAX) {
      setError(
        t('general.prompt.tooLong', {
          max: format.number(MAX),
          length: format.number(text.length),
        }),
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
      aria-label={t('general.prompt.label')}
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>{t('general.prompt.heading')}</h3>
      <Field
        label={t('general.prompt.label')}
        error={error}
        hint={props.saved === null ? t('general.prompt.hintDefault') : t('general.prompt.hintOwn')}
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
      <SaveActions label={t('general.prompt.save')} saver={saver}>
        <button type="button" onClick={() => void reset()} disabled={props.saved === null}>
          {t('general.prompt.reset')}
        </button>
      </SaveActions>
    </form>
  )
}
