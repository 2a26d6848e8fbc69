/**
 * A settings section's mode: its list, or a form over it. Back at the list from a form,
 * `listButton` (the button that opens a form) takes the focus again; not on the first show.
 */
import { useEffect, useRef, useState } from 'react'

export function useSectionMode<M extends { kind: string }>(list: M) {
  const [mode, setMode] = useState<M>(list)
  const listButton = useRef<HTMLButtonElement>(null)
  const back = useRef(false)
  useEffect(() => {
    if (mode.kind !== 'list' || !back.current) return
    back.current = false
    listButton.current?.focus()
  }, [mode.kind])
  const toList = (): void => {
    back.current = true
    setMode(list)
  }
  return { mode, setMode, toList, listButton }
}
