/** The settings screen: a list of sections on the side, the chosen one beside it. */
import { useEffect, useRef, type JSX } from 'react'
import { useNav } from '../../state/context'
import { findSection, sections } from './sections'
import './settings.css'

export function SettingsScreen(): JSX.Element {
  const sectionId = useNav((s) => s.section)
  const showSettings = useNav((s) => s.showSettings)
  const showChat = useNav((s) => s.showChat)
  const current = findSection(sectionId)
  const heading = useRef<HTMLHeadingElement>(null)

  useEffect(() => {
    document.title = `Settings — Cairn`
    heading.current?.focus()
  }, [current.id])

  return (
    <main className="settings" aria-label="Settings">
      <header className="top">
        <h1 className="title">Settings</h1>
        <button type="button" className="action" onClick={showChat}>
          Back to chat
        </button>
      </header>
      <div className="settings-body">
        <nav className="settings-nav" aria-label="Settings sections">
          <ul>
            {sections.map((s) => (
              <li key={s.id}>
                <button
                  type="button"
                  aria-current={s.id === current.id ? 'page' : undefined}
                  onClick={() => showSettings(s.id)}
                >
                  {s.label}
                </button>
              </li>
            ))}
          </ul>
        </nav>
        <section className="settings-section" aria-labelledby="settings-section-title">
          <h2 id="settings-section-title" tabIndex={-1} ref={heading}>
            {current.label}
          </h2>
          <current.Component />
        </section>
      </div>
    </main>
  )
}
