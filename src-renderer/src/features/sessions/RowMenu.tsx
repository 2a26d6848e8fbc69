/**
 * A small menu of actions (role menu): it opens below its button (fixed, so the list's
 * scroller does not clip it), focus goes to the first item, arrows / Home / End move, Esc
 * or Tab closes it and gives the focus back to the button, a click outside closes it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type JSX, type KeyboardEvent } from 'react'

export interface MenuItem {
  label: string
  onSelect(): void
  disabled?: boolean
  danger?: boolean
}

export function RowMenu(props: {
  label: string
  anchor: HTMLElement
  items: MenuItem[]
  onClose(refocus: boolean): void
}): JSX.Element {
  const { anchor, onClose } = props
  const menu = useRef<HTMLDivElement>(null)
  const [pos, setPos] = useState<{ top: number; left: number } | null>(null)

  useLayoutEffect(() => {
    const r = anchor.getBoundingClientRect()
    const height = menu.current?.offsetHeight ?? 0
    const below = r.bottom + 4
    const top = below + height > window.innerHeight ? Math.max(4, r.top - height - 4) : below
    setPos({ top, left: Math.max(4, r.right - (menu.current?.offsetWidth ?? 0)) })
    menu.current?.querySelector<HTMLElement>('[role="menuitem"]:not(:disabled)')?.focus()
  }, [anchor])

  useEffect(() => {
    const onDown = (e: PointerEvent): void => {
      const t = e.target as Node
      if (!menu.current?.contains(t) && !anchor.contains(t)) onClose(false)
    }
    document.addEventListener('pointerdown', onDown)
    return () => document.removeEventListener('pointerdown', onDown)
  }, [anchor, onClose])

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>): void => {
    const items = [
      ...(menu.current?.querySelectorAll<HTMLElement>('[role="menuitem"]:not(:disabled)') ?? []),
    ]
    const at = items.indexOf(document.activeElement as HTMLElement)
    const go = (i: number): void => items[(i + items.length) % items.length]?.focus()
    if (e.key === 'ArrowDown') go(at + 1)
    else if (e.key === 'ArrowUp') go(at - 1)
    else if (e.key === 'Home') go(0)
    else if (e.key === 'End') go(items.length - 1)
    else if (e.key === 'Escape' || e.key === 'Tab') {
      if (e.key === 'Escape') e.preventDefault()
      onClose(true)
      return
    } else return
    e.preventDefault()
  }

  return (
    <div
      ref={menu}
      role="menu"
      aria-label={props.label}
      className="row-menu"
      style={pos ? { top: pos.top, left: pos.left } : { visibility: 'hidden' }}
      onKeyDown={onKeyDown}
    >
      {props.items.map((it) => (
        <button
          key={it.label}
          type="button"
          role="menuitem"
          className={it.danger ? 'danger-text' : undefined}
          disabled={it.disabled}
          onClick={() => {
            onClose(false)
            it.onSelect()
          }}
        >
          {it.label}
        </button>
      ))}
    </div>
  )
}
