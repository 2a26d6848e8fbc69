/** Light, dark or the system's: kept in this browser, the same choice as the header's switch. */
import type { JSX } from 'react'
import { useT } from '../../i18n'
import { useThemeChoice, type ThemeChoice as Choice } from '../../ui/theme'

const CHOICES: Choice[] = ['light', 'dark', 'system']

export function ThemeChoice(): JSX.Element {
  const [choice, , setChoice] = useThemeChoice()
  const t = useT()
  return (
    <fieldset className="settings-form radio-group">
      <legend>{t('general.theme.legend')}</legend>
      {CHOICES.map((c) => (
        <label key={c} className="radio-option">
          <input
            type="radio"
            name="theme"
            value={c}
            checked={choice === c}
            onChange={() => setChoice(c)}
          />
          <span className="radio-label">{t(`general.theme.${c}`)}</span>
        </label>
      ))}
    </fieldset>
  )
}
