/**
 * Settings › Skills: the skills the model may read with use_skill (the data directory's
 * `skills/` folder), each with where it comes from and its description; "Show" opens its
 * SKILL.md as plain text. Skills are instructions: nothing here runs them.
 */
import { useQuery } from '@tanstack/react-query'
import { useState, type JSX } from 'react'
import { useT } from '../../i18n'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import '../../ui/forms/forms.css'
import './skills.css'

export function SkillsSection(): JSX.Element {
  const t = useT()
  const { bridge } = usePlatform()
  const list = useQuery({ queryKey: ['skills'], queryFn: () => call(bridge, 'skills.list', {}) })
  const [shown, setShown] = useState<{ name: string; text: string } | null>(null)
  const [error, setError] = useState<string | null>(null)
  const show = async (name: string): Promise<void> => {
    setError(null)
    try {
      setShown(await call(bridge, 'skills.show', { name }))
    } catch (e) {
      setError((e as Error).message)
    }
  }
  return (
    <>
      <p className="section-intro meta">{t('skills.intro')}</p>
      <section aria-labelledby="skills-title" className="settings-form">
        <h3 id="skills-title">{t('skills.title')}</h3>
        {list.isError ? (
          <p role="alert" className="error">
            {(list.error as Error).message}
          </p>
        ) : null}
        {list.data && list.data.skills.length === 0 ? (
          <p className="meta">{t('skills.none', { folder: list.data.folder })}</p>
        ) : null}
        <ul className="skills-list">
          {(list.data?.skills ?? []).map((s) => (
            <li key={s.name} aria-label={s.name}>
              <div>
                <strong>{s.name}</strong>{' '}
                <span className="meta">{t(`skills.source.${s.source}`)}</span>
              </div>
              <p>{s.description}</p>
              <button
                type="button"
                className="action"
                aria-expanded={shown?.name === s.name}
                onClick={() => (shown?.name === s.name ? setShown(null) : void show(s.name))}
              >
                {shown?.name === s.name ? t('skills.hide') : t('skills.show')}
              </button>
              {shown?.name === s.name ? (
                <pre className="skills-text" aria-label={t('skills.textOf', { name: s.name })}>
                  {shown.text}
                </pre>
              ) : null}
            </li>
          ))}
        </ul>
        {error ? (
          <p role="alert" className="error">
            {error}
          </p>
        ) : null}
        {list.data && list.data.skills.length > 0 ? (
          <p className="meta">{t('skills.where', { folder: list.data.folder })}</p>
        ) : null}
      </section>
    </>
  )
}
