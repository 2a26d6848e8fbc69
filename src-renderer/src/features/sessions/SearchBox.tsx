/**
 * The sidebar's search box (Ctrl/Cmd+K focuses it): Esc empties it, ↓ moves into the
 * results.
 */
import type { JSX, RefObject } from 'react'
import { useT } from '../../i18n'

export function SearchBox(props: {
  inputRef: RefObject<HTMLInputElement | null>
  text: string
  setText(text: string): void
}): JSX.Element {
  const { text, setText } = props
  const t = useT()
  return (
    <div className="sidebar-search">
      <input
        ref={props.inputRef}
        type="search"
        aria-label={t('sidebar.search')}
        placeholder={t('sidebar.searchPlaceholder')}
        aria-keyshortcuts="Control+K Meta+K"
        value={text}
        maxLength={1000}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && text !== '') {
            e.preventDefault()
            setText('')
          } else if (e.key === 'ArrowDown' && text.trim() !== '') {
            e.preventDefault()
            e.currentTarget
              .closest('.sidebar')
              ?.querySelector<HTMLElement>('.search-results button')
              ?.focus()
          }
        }}
      />
    </div>
  )
}
