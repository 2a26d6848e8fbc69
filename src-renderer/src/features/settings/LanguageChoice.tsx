/**
 * The window's language: the system's until the user picks one, kept in this browser (like
 * the theme) and applied at once. Each language is named in itself.
 */
import type { JSX } from 'react'
import {
  AUTONYMS,
  LANGUAGES,
  isLanguage,
  systemLanguage,
  useLanguageChoice,
  useT,
} from '../../i18n'
import { Field } from '../../ui/forms/Field'

export function LanguageChoice(): JSX.Element {
  const [choice, setChoice] = useLanguageChoice()
  const t = useT()
  const system = AUTONYMS[systemLanguage(navigator.languages ?? [navigator.language])]
  return (
    <div className="settings-form">
      <Field label={t('general.language.label')} hint={t('general.language.hint')}>
        {(ids) => (
          <select
            {...ids}
            value={choice}
            onChange={(e) => {
              const v = e.target.value
              void setChoice(isLanguage(v) ? v : 'system')
            }}
          >
            <option value="system">{t('general.language.system', { language: system })}</option>
            {LANGUAGES.map((l) => (
              <option key={l} value={l} lang={l}>
                {AUTONYMS[l]}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  )
}
