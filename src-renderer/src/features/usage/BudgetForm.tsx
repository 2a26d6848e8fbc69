/** The monthly budget (US dollars): a warning at 80 % and at 100 % of it. Empty: no budget. */
import { useEffect, useState, type FormEvent, type JSX } from 'react'
import { useT } from '../../i18n'
import { TextField } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'
import type { UsageSettings } from '../../../../src-preload/contract/usage'

/** the typed budget as a number; null: none; undefined: not a budget */
export function parseBudget(text: string): number | null | undefined {
  const t = text.trim()
  if (t === '') return null
  const n = Number(t)
  return Number.isFinite(n) && n > 0 && n <= 1_000_000 ? n : undefined
}

export function BudgetForm(props: { saved: UsageSettings }): JSX.Element {
  const saver = useSaveSettings()
  const t = useT()
  const savedText = props.saved.monthlyBudget === null ? '' : String(props.saved.monthlyBudget)
  const [text, setText] = useState(savedText)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setText(savedText), [savedText])
  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const budget = parseBudget(text)
    if (budget === undefined) {
      setError(t('usage.budget.invalid'))
      return
    }
    setError(null)
    void saver.save({ usage: { ...props.saved, monthlyBudget: budget } })
  }
  return (
    <form className="settings-form" onSubmit={submit} aria-label={t('usage.budget.form')}>
      <TextField
        label={t('usage.budget.label')}
        inputMode="decimal"
        value={text}
        onValue={(v) => {
          setText(v)
          saver.reset()
        }}
        error={error}
        hint={t('usage.budget.hint')}
      />
      <SaveActions label={t('usage.budget.save')} saver={saver} />
    </form>
  )
}
