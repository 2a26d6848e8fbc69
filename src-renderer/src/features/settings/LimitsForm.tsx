/** The limits of one turn and how long turn logs are kept: number fields, checked, saved together. */
import { useState, type FormEvent, type JSX } from 'react'
import type { LimitsView, SettingsView } from '../../../../src-preload/contract/app-dto'
import { i18n, useT } from '../../i18n'
import { TextField } from '../../ui/forms/Field'
import { LIMIT_FIELDS, parseLimit, shown, type NumberLimit } from './limit-fields'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

type Texts = Record<NumberLimit | 'logRetentionDays', string>
type Errors = Partial<Record<keyof Texts, string>>

const RETENTION = { min: 1, max: 3650 }

function textsOf(s: SettingsView): Texts {
  const t = { logRetentionDays: String(s.logRetentionDays) } as Texts
  for (const f of LIMIT_FIELDS) t[f.key] = shown(f, s.limits[f.key] ?? f.min)
  return t
}

function retentionProblem(text: string): string | null {
  const n = Number(text.trim())
  if (!text.trim() || !Number.isInteger(n)) return i18n.t('general.limits.retentionWhole')
  if (n < RETENTION.min) return i18n.t('common.atLeast', { min: RETENTION.min })
  if (n > RETENTION.max) return i18n.t('common.atMost', { max: RETENTION.max })
  return null
}

export function LimitsForm({ settings }: { settings: SettingsView }): JSX.Element {
  const [texts, setTexts] = useState<Texts>(() => textsOf(settings))
  const [stops, setStops] = useState({
    stopOnToolFailure: settings.limits.stopOnToolFailure,
    stopOnDenied: settings.limits.stopOnDenied,
  })
  const [errors, setErrors] = useState<Errors>({})
  const saver = useSaveSettings()
  const t = useT()

  const edit = (key: keyof Texts, value: string): void => {
    setTexts((t) => ({ ...t, [key]: value }))
    saver.reset()
    if (errors[key]) setErrors(({ [key]: _fixed, ...rest }) => rest)
  }

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const found: Errors = {}
    const limits: Partial<LimitsView> = { ...stops }
    for (const f of LIMIT_FIELDS) {
      const r = parseLimit(f, texts[f.key])
      if (r.error !== null) found[f.key] = r.error
      else limits[f.key] = r.value
    }
    const retention = retentionProblem(texts.logRetentionDays)
    if (retention) found.logRetentionDays = retention
    setErrors(found)
    const first = Object.keys(found)[0]
    if (first) {
      document.getElementById(`limit-${first}`)?.focus()
      return
    }
    await saver.save({ limits, logRetentionDays: Number(texts.logRetentionDays.trim()) })
  }

  return (
    <form
      className="settings-form"
      aria-label={t('general.limits.form')}
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>{t('general.limits.heading')}</h3>
      <div className="limit-grid">
        {LIMIT_FIELDS.map((f) => (
          <TextField
            key={f.key}
            id={`limit-${f.key}`}
            label={t(`general.limits.fields.${f.key}.label`)}
            hint={t(`general.limits.fields.${f.key}.hint`)}
            error={errors[f.key]}
            type="number"
            inputMode="decimal"
            min={f.min}
            max={f.max}
            step={f.scale === 1 ? 1 : 'any'}
            value={texts[f.key]}
            onValue={(v) => edit(f.key, v)}
          />
        ))}
        <TextField
          id="limit-logRetentionDays"
          label={t('general.limits.retention')}
          hint={t('general.limits.retentionHint')}
          error={errors.logRetentionDays}
          type="number"
          min={RETENTION.min}
          max={RETENTION.max}
          step={1}
          value={texts.logRetentionDays}
          onValue={(v) => edit('logRetentionDays', v)}
        />
      </div>
      <label className="check-option">
        <input
          type="checkbox"
          checked={stops.stopOnToolFailure}
          onChange={(e) => {
            setStops((s) => ({ ...s, stopOnToolFailure: e.target.checked }))
            saver.reset()
          }}
        />
        {t('general.limits.stopOnToolFailure')}
      </label>
      <label className="check-option">
        <input
          type="checkbox"
          checked={stops.stopOnDenied}
          onChange={(e) => {
            setStops((s) => ({ ...s, stopOnDenied: e.target.checked }))
            saver.reset()
          }}
        />
        {t('general.limits.stopOnDenied')}
      </label>
      <SaveActions label={t('general.limits.save')} saver={saver} />
    </form>
  )
}
