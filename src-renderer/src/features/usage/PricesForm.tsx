/**
 * Your own prices per model (US dollars per million tokens), over the provider's and the
 * table's. A price applies to answers from now on: stored answers keep theirs.
 */
import { useState, type FormEvent, type JSX } from 'react'
import { TextField } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'
import type { ModelPriceRates, UsageSettings } from '../../../../src-preload/contract/usage'
import { isPrice } from '../../../../src-preload/contract/usage-format'
import { useT } from '../../i18n'
import { useFormat } from '../../i18n/format'

interface Draft {
  model: string
  input: string
  output: string
  cachedInput: string
}

const EMPTY: Draft = { model: '', input: '', output: '', cachedInput: '' }

/**
 * the draft as a price, or the fields in error, each with the key of what to say (the
 * settings' schema checks the same)
 */
export function readPrice(d: Draft): { price: ModelPriceRates } | { errors: Partial<Draft> } {
  const errors: Partial<Draft> = {}
  if (!d.model.trim()) errors.model = 'usage.prices.modelMissing'
  const bad = 'usage.prices.badPrice'
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
  const t = useT()
  const format = useFormat()
  if (entries.length === 0) return <p className="meta">{t('usage.prices.none')}</p>
  return (
    <ul className="usage-prices">
      {entries.map(([model, p]) => (
        <li key={model}>
          <span className="usage-price-model">{model}</span>
          <span className="meta">
            {p.cachedInput !== undefined
              ? t('usage.prices.rateCached', {
                  input: format.usd(p.input),
                  output: format.usd(p.output),
                  cached: format.usd(p.cachedInput),
                })
              : t('usage.prices.rate', { input: format.usd(p.input), output: format.usd(p.output) })}
          </span>
          <button
            type="button"
            className="action"
            aria-label={t('usage.prices.removeOf', { model })}
            onClick={() => props.onRemove(model)}
          >
            {t('usage.prices.remove')}
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
  const t = useT()
  const said = (key: string | undefined): string | null =>
    key ? t(key as 'usage.prices.badPrice') : null
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
    <form
      className="settings-form"
      onSubmit={(e) => void submit(e)}
      aria-label={t('usage.prices.title')}
    >
      <h3>{t('usage.prices.title')}</h3>
      <p className="meta">{t('usage.prices.about')}</p>
      <PriceList saved={props.saved} onRemove={remove} />
      <div className="usage-price-fields">
        <TextField
          label={t('usage.model')}
          value={draft.model}
          onValue={set('model')}
          error={said(errors.model)}
        />
        <TextField
          label={t('usage.prices.input')}
          inputMode="decimal"
          value={draft.input}
          onValue={set('input')}
          error={said(errors.input)}
        />
        <TextField
          label={t('usage.prices.output')}
          inputMode="decimal"
          value={draft.output}
          onValue={set('output')}
          error={said(errors.output)}
        />
        <TextField
          label={t('usage.prices.cachedInput')}
          inputMode="decimal"
          value={draft.cachedInput}
          onValue={set('cachedInput')}
          error={said(errors.cachedInput)}
          hint={t('usage.prices.cachedHint')}
        />
      </div>
      <SaveActions label={t('usage.prices.save')} saver={saver} />
    </form>
  )
}
