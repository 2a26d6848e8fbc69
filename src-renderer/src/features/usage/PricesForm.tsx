/**
 * Your own prices per model (US dollars per million tokens), over the provider's and the
 * table's. A price applies to answers from now on: stored answers keep theirs.
 */
import { useState, type FormEvent, type JSX } from 'react'
import { TextField } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'
import type { ModelPriceRates, UsageSettings } from '../../../../src-preload/contract/usage'
import { formatUsd, isPrice } from '../../../../src-preload/contract/usage-format'

interface Draft {
  model: string
  input: string
  output: string
  cachedInput: string
}

const EMPTY: Draft = { model: '', input: '', output: '', cachedInput: '' }

/** the draft as a price, or the fields in error (the settings' schema checks the same) */
export function readPrice(d: Draft): { price: ModelPriceRates } | { errors: Partial<Draft> } {
  const errors: Partial<Draft> = {}
  if (!d.model.trim()) errors.model = 'Enter the model’s name, as the provider calls it.'
  const bad = 'Enter a price from 0 to 100 000.'
  const num = (k: 'input' | 'output' | 'cachedInput'): number => {
    const n = d[k].trim() === '' ? NaN : Number(d[k])
    if (!isPrice(n)) errors[k] = bad
    return n
  }
  const input = num('input')
  const output = num('output')
  const cachedInput = d.cachedInput.trim() ? num('cachedInput') : undefined
  if (Object.keys(errors).length > 0) return { errors }
  return { price: { input, output, ...(cachedInput !== undefined ? { cachedInput } : {}) } }
}

function PriceList(props: {
  saved: UsageSettings
  onRemove: (model: string) => void
}): JSX.Element {
  const entries = Object.entries(props.saved.prices)
  if (entries.length === 0) return <p className="meta">No prices of your own.</p>
  return (
    <ul className="usage-prices">
      {entries.map(([model, p]) => (
        <li key={model}>
          <span className="usage-price-model">{model}</span>
          <span className="meta">
            {formatUsd(p.input)} in · {formatUsd(p.output)} out
            {p.cachedInput !== undefined ? ` · ${formatUsd(p.cachedInput)} cached` : ''}
          </span>
          <button
            type="button"
            className="action"
            aria-label={`Remove the price of ${model}`}
            onClick={() => props.onRemove(model)}
          >
            Remove
          </button>
        </li>
      ))}
    </ul>
  )
}

export function PricesForm(props: { saved: UsageSettings }): JSX.Element {
  const saver = useSaveSettings()
  const [draft, setDraft] = useState<Draft>(EMPTY)
  const [errors, setErrors] = useState<Partial<Draft>>({})
  const set = (k: keyof Draft) => (v: string) => {
    setDraft((d) => ({ ...d, [k]: v }))
    saver.reset()
  }
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const read = readPrice(draft)
    if ('errors' in read) {
      setErrors(read.errors)
      return
    }
    setErrors({})
    const prices = { ...props.saved.prices, [draft.model.trim()]: read.price }
    // what was typed stays until the save went through
    if (await saver.save({ usage: { ...props.saved, prices } })) setDraft(EMPTY)
  }
  const remove = (model: string): void => {
    const { [model]: _gone, ...prices } = props.saved.prices
    void saver.save({ usage: { ...props.saved, prices } })
  }
  return (
    <form className="settings-form" onSubmit={(e) => void submit(e)} aria-label="Your prices">
      <h3>Your prices</h3>
      <p className="meta">
        US dollars per million tokens. Yours come first; then a local server costs nothing; then the
        provider’s published price, then the table that comes with Cairn. A new price applies to the
        next answers: stored answers keep the price they were counted at.
      </p>
      <PriceList saved={props.saved} onRemove={remove} />
      <div className="usage-price-fields">
        <TextField
          label="Model"
          value={draft.model}
          onValue={set('model')}
          error={errors.model ?? null}
        />
        <TextField
          label="Input"
          inputMode="decimal"
          value={draft.input}
          onValue={set('input')}
          error={errors.input ?? null}
        />
        <TextField
          label="Output"
          inputMode="decimal"
          value={draft.output}
          onValue={set('output')}
          error={errors.output ?? null}
        />
        <TextField
          label="Cached input"
          inputMode="decimal"
          value={draft.cachedInput}
          onValue={set('cachedInput')}
          error={errors.cachedInput ?? null}
          hint="Empty: the input price."
        />
      </div>
      <SaveActions label="Save price" saver={saver} />
    </form>
  )
}
