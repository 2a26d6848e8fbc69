/** How Cairn runs local models: idle unload, threads, the largest context, the hub's address. */
import { useState, type FormEvent, type JSX } from 'react'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import { Field } from '../../ui/forms/Field'
import { SaveActions } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

type Local = SettingsView['localModels']

const NUMBERS: {
  key: Exclude<keyof Local, 'hubURL'>
  label: string
  hint: string
  min: number
  max: number
}[] = [
  {
    key: 'idleMinutes',
    label: 'Unload after (minutes idle)',
    hint: 'A loaded model frees its memory after this long without a message.',
    min: 1,
    max: 1440,
  },
  {
    key: 'maxContext',
    label: 'Largest context window (tokens)',
    hint: 'Up to what the model was trained with; less when memory is short.',
    min: 512,
    max: 1_048_576,
  },
  {
    key: 'threads',
    label: 'CPU threads',
    hint: '0: half of this machine’s cores.',
    min: 0,
    max: 256,
  },
]

function problems(v: Record<keyof Local, string>): Partial<Record<keyof Local, string>> {
  const out: Partial<Record<keyof Local, string>> = {}
  for (const n of NUMBERS) {
    const x = Number(v[n.key])
    if (!Number.isInteger(x) || x < n.min || x > n.max)
      out[n.key] = `A whole number from ${n.min} to ${n.max}.`
  }
  if (!/^https?:\/\/[^\s]+$/.test(v.hubURL.trim())) out.hubURL = 'An http or https address.'
  return out
}

export function RuntimeForm(props: { saved: Local }): JSX.Element {
  const saver = useSaveSettings()
  const [v, setV] = useState<Record<keyof Local, string>>({
    idleMinutes: String(props.saved.idleMinutes),
    maxContext: String(props.saved.maxContext),
    threads: String(props.saved.threads),
    hubURL: props.saved.hubURL,
  })
  const [errors, setErrors] = useState<Partial<Record<keyof Local, string>>>({})
  const set = (key: keyof Local, value: string): void => {
    setV({ ...v, [key]: value })
    saver.reset()
  }
  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault()
    const found = problems(v)
    setErrors(found)
    if (Object.keys(found).length > 0) return
    await saver.save({
      localModels: {
        idleMinutes: Number(v.idleMinutes),
        maxContext: Number(v.maxContext),
        threads: Number(v.threads),
        hubURL: v.hubURL.trim(),
      },
    })
  }
  return (
    <form
      className="settings-form"
      aria-label="Local runtime"
      onSubmit={(e) => void submit(e)}
      noValidate
    >
      <h3>Runtime</h3>
      {NUMBERS.map((n) => (
        <Field key={n.key} label={n.label} hint={n.hint} error={errors[n.key] ?? null}>
          {(ids) => (
            <input
              {...ids}
              inputMode="numeric"
              value={v[n.key]}
              onChange={(e) => set(n.key, e.target.value)}
            />
          )}
        </Field>
      ))}
      <Field
        label="Hugging Face address"
        hint="Where models are searched and downloaded (a mirror’s address works)."
        error={errors.hubURL ?? null}
      >
        {(ids) => (
          <input
            {...ids}
            value={v.hubURL}
            onChange={(e) => set('hubURL', e.target.value)}
            spellCheck={false}
          />
        )}
      </Field>
      <SaveActions label="Save runtime settings" saver={saver} />
    </form>
  )
}
