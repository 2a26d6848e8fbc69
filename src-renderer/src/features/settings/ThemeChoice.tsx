/** Light, dark or the system's: kept in this browser, the same choice as the header's switch. */
import type { JSX } from 'react'
import { useThemeChoice, type ThemeChoice as Choice } from '../../ui/theme'

const CHOICES: { id: Choice; label: string }[] = [
  { id: 'light', label: 'Light' },
  { id: 'dark', label: 'Dark' },
  { id: 'system', label: 'Same as the system' },
]

export function ThemeChoice(): JSX.Element {
  const [choice, , setChoice] = useThemeChoice()
  return (
    <fieldset className="settings-form radio-group">
      <legend>Theme</legend>
      {CHOICES.map((c) => (
        <label key={c.id} className="radio-option">
          <input
            type="radio"
            name="theme"
            value={c.id}
            checked={choice === c.id}
            onChange={() => setChoice(c.id)}
          />
          <span className="radio-label">{c.label}</span>
        </label>
      ))}
    </fieldset>
  )
}
