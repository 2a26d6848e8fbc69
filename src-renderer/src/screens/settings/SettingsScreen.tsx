/** The settings screen: a list of sections on the side, the chosen one beside it. */
import { useEffect, useRef, type JSX } from 'react'
import { useT } from '../../i18n'
import { useNav } from '../../state/context'
import { SidebarToggle } from '../../ui/sidebar-toggle'
import { findSection, sections } from './sections'
import './settings.css'

export function SettingsScreen(): JSX.Element {
  const sectionId = useNav((s) => s.section)
  const showSettings = useNav((s) => s.showSettings)
  const showChat = useNav((s) => s.showChat)
  const current = findSection(sectionId)
  const heading = useRef<HTMLHeadingElement>(null)
  const t = useT()

  useEffect(() => {
    heading.current?.focus()
  }, [current.id])
  useEffect(() => {
    document.title = t('settings.documentTitle')
  }, [t])

  return (
    <main className="settings" aria-label={t('settings.title')}>
      <header className="top">
        <SidebarToggle />
        <h1 className="title">{t('settings.title')}</h1>
        <button type="button" className="action" onClick={showChat}>
          {t('settings.back')}
        </button>
      </header>
      <div className="settings-body">
        <nav className="settings-nav" aria-label={t('settings.sectionsNav')}>
          <ul>
            {sections.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  aria-current={s.id === current.id ? 'page' : undefined}
                  onClick={() => showSettings(s.id)}
                >
                  {s.label(t)}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <section className="settings-section" aria-labelledby="settings-section-title">
          <h2 id="settings-section-title" tabIndex={-1} ref={heading}>
            {current.label(t)}
          </h2>
          <current.Component />
        </section>
      </div>
    </main>
  )
}
