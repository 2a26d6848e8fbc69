/**
 * Whether new chats are named by the model (the provider's utility model, from the first
 * exchange) or by their first message. Saved as soon as it is switched.
 */
import { useEffect, useState, type JSX } from 'react'
import { useT } from '../../i18n'
import { SaveStatus } from '../../ui/forms/SaveStatus'
import { useSaveSettings } from '../../ui/forms/use-save-settings'

export function TitlesToggle(props: { saved: boolean }): JSX.Element {
  const saver = useSaveSettings()
  const t = useT()
  // the switch moves at once, while it is saved (and goes back if the save fails)
  const [pending, setPending] = useState<boolean | null>(null)
  useEffect(() => setPending(null), [props.saved])
  const on = pending ?? props.saved
  const change = (next: boolean): void => {
    setPending(next)
    void saver.save({ generateTitles: next }).then((ok) => {
      if (!ok) setPending(null)
    })
  }
  return (
    <fieldset className="settings-form">
      <legend>{t('general.titles.legend')}</legend>
      <label className="check-option">
        <input
          type="checkbox"
          checked={on}
          aria-describedby="generate-titles-about"
          onChange={(e) => change(e.target.checked)}
        />
        {t('general.titles.toggle')}
      </label>
      <span id="generate-titles-about" className="meta tool-about">
        {t('general.titles.about')}
      </span>
      <SaveStatus saver={saver} />
    </fieldset>
  )
}
