/** The monthly budget (US dollars): a warning at 80 % and at 100 % of it. Empty: no budget. */
import { useEffect, useState, type FormEvent, type JSX } from 'react'
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
  const savedText = props.saved.monthlyBudget === null ? '' : String(props.saved.monthlyBudget)
  const [text, setText] = useState(savedText)
  const [error, setError] = useState<string | null>(null)
  useEffect(() => setText(savedText), [savedText])
  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const budget = parseBudget(text)
    if (budget === undefined) {
      setError('Enter an amount in US dollars above 0 (at most 1 000 000), or leave it empty.')
      return
    }
    setError(null)
    void saver.save({ usage: { ...props.saved, monthlyBudget: budget } })
  }
  return (
    <form className="settings-form" onSubmit={submit} aria-label="Monthly budget">
      <TextField
        label="Monthly budget (US dollars)"
        inputMode="decimal"
        value={text}
        onValue={(v) => {
          setText(v)
          saver.reset()
        }}
        error={error}
        hint="Cairn warns at 80 % and at 100 % of it. Empty: no budget."
      />
      <SaveActions label="Save budget" saver={saver} />
    </form>
  )
}
