/**
 * One chat in the list: its title (opens it), a running marker while it answers, a pin
 * mark, and "Actions for <title>": Rename (inline: Enter saves, Esc cancels), Pin/Unpin,
 * Export as Markdown or JSON, Delete.
 */
import { memo, useCallback, useRef, useState, type JSX } from 'react'
import type { SessionRecord } from '../../../../src-preload/contract/dto'
import { useT } from '../../i18n'
import { useErrorText } from '../../ui/error-text'
import { RowMenu } from './RowMenu'

export interface RowCallbacks {
  open(id: string): void
  rename(id: string, title: string): Promise<void>
  pin(s: SessionRecord): void
  exportAs(s: SessionRecord, format: 'md' | 'json'): void
  askDelete(s: SessionRecord): void
}

function RenameField(props: {
  session: SessionRecord
  rename: RowCallbacks['rename']
  done(): void
}): JSX.Element {
  const [value, setValue] = useState(props.session.title)
  const [error, setError] = useState<string | null>(null)
  const [saving, setSaving] = useState(false)
  const t = useT()
  const errorText = useErrorText()
  const save = async (): Promise<void> => {
    const title = value.trim()
    if (title === props.session.title) return props.done()
    if (title === '') return setError(t('sidebar.titleEmpty'))
    setSaving(true)
    try {
      await props.rename(props.session.id, title)
      props.done()
    } catch (e) {
      setError(errorText(e))
      setSaving(false)
    }
  }
  const errorId = `rename-error-${props.session.id}`
  return (
    <div className="rename">
      <input
        aria-label={t('sidebar.titleField')}
        value={value}
        maxLength={500}
        autoFocus
        disabled={saving}
        aria-invalid={error !== null}
        aria-describedby={error ? errorId : undefined}
        onFocus={(e) => e.currentTarget.select()}
        onChange={(e) => {
          setValue(e.target.value)
          setError(null)
        }}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault()
            void save()
          } else if (e.key === 'Escape') {
            e.preventDefault()
            props.done()
          }
        }}
      />
      {error ? (
        <p className="field-error" id={errorId} role="alert">
          {error}
        </p>
      ) : null}
    </div>
  )
}

/** a chat imported from an export: where it came from (the title says the rest) */
function ImportedMark(props: { session: SessionRecord }): JSX.Element | null {
  const t = useT()
  const o = props.session.origin
  if (o?.kind !== 'import') return null
  const label = t('sidebar.imported', { source: t(`sidebar.importSource.${o.source}`) })
  return (
    <span className="import-mark" role="img" aria-label={label} title={label}>
      ⤓
    </span>
  )
}

export const SessionRow = memo(function SessionRow(props: {
  session: SessionRecord
  current: boolean
  running: boolean
  callbacks: RowCallbacks
}): JSX.Element {
  const { session: s, callbacks: cb } = props
  const [renaming, setRenaming] = useState(false)
  const [menuOpen, setMenuOpen] = useState(false)
  const menuButton = useRef<HTMLButtonElement>(null)
  const t = useT()
  const title = s.title || t('chat.untitled')
  const closeMenu = useCallback((refocus: boolean) => {
    setMenuOpen(false)
    if (refocus) menuButton.current?.focus()
  }, [])
  return (
    <div className={`session-row${props.current ? ' current' : ''}`}>
      {renaming ? (
        <RenameField
          session={s}
          rename={cb.rename}
          done={() => {
            setRenaming(false)
            requestAnimationFrame(() => menuButton.current?.focus())
          }}
        />
      ) : (
        <button
          type="button"
          className="session-item"
          aria-current={props.current ? 'page' : undefined}
          onClick={() => cb.open(s.id)}
        >
          {s.pinned ? (
            <span className="pin-mark" role="img" aria-label={t('sidebar.pinned')}>
              ★
            </span>
          ) : null}
          <span className="session-title">{title}</span>
          <ImportedMark session={s} />
          {props.running ? (
            <span className="running-dot" role="img" aria-label={t('chat.answering')}>
              ●
            </span>
          ) : null}
        </button>
      )}
      <button
        ref={menuButton}
        type="button"
        className="session-menu-button"
        aria-label={t('sidebar.actionsFor', { title })}
        aria-haspopup="menu"
        aria-expanded={menuOpen}
        onClick={() => setMenuOpen((o) => !o)}
      >
        ⋯
      </button>
      {menuOpen && menuButton.current ? (
        <RowMenu
          label={t('sidebar.actionsFor', { title })}
          anchor={menuButton.current}
          onClose={closeMenu}
          items={[
            { label: t('sidebar.rename'), onSelect: () => setRenaming(true) },
            { label: s.pinned ? t('sidebar.unpin') : t('sidebar.pin'), onSelect: () => cb.pin(s) },
            { label: t('sidebar.exportMarkdown'), onSelect: () => cb.exportAs(s, 'md') },
            { label: t('sidebar.exportJson'), onSelect: () => cb.exportAs(s, 'json') },
            {
              label: t('common.delete'),
              danger: true,
              disabled: props.running,
              onSelect: () => cb.askDelete(s),
            },
          ]}
        />
      ) : null}
    </div>
  )
})
