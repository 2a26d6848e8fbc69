/**
 * Tells a deliberate keyboard activation of a dialog's button from one that is not.
 *
 * It watches every key on the page (from before the dialog opens): which keys are down,
 * and whether each went down inside the dialog and on which element. A keyboard "click"
 * (a click with `detail` 0: Enter on keydown, Space on keyup) decides only when
 * - no key that went down outside the dialog (or before the current request was shown) is
 *   still held or is being released — a held Enter from the composer, its auto-repeat, or
 *   the keyup of a Space typed into the message;
 * - the key press that causes it is not an auto-repeat;
 * - that key went down on the very button.
 * A click with no key involved at all (assistive technology activating the button) counts.
 * Modifier keys are ignored (Shift+Tab to reach a button is deliberate).
 */
import { useCallback, useEffect, useRef, type RefObject } from 'react'

interface Press {
  /** went down inside the dialog, while the current request was shown */
  inside: boolean
  target: EventTarget | null
}

const MODIFIERS = new Set(['Shift', 'Control', 'Alt', 'AltGraph', 'Meta', 'CapsLock', 'Fn'])

function keyOf(e: KeyboardEvent): string {
  return e.code || e.key
}

export function useDeliberateKeys(
  dialog: RefObject<HTMLElement | null>,
  /** changes when another request is shown: keys held from before count as outside */
  requestKey: string | null,
): (button: EventTarget, detail: number) => boolean {
  const held = useRef(new Map<string, Press>())
  /** the key being released now (Space activates on keyup), until this task ends */
  const releasing = useRef<Press | null>(null)
  /** whether the keydown being dispatched now is an auto-repeat */
  const repeating = useRef(false)

  useEffect(() => {
    const doc = document
    const inDialog = (t: EventTarget | null): boolean =>
      t instanceof Node && dialog.current !== null && dialog.current.contains(t)
    const down = (e: KeyboardEvent): void => {
      if (MODIFIERS.has(e.key)) return
      const k = keyOf(e)
      repeating.current = e.repeat
      setTimeout(() => (repeating.current = false), 0)
      // a repeat of a key whose first press was never seen went down elsewhere
      if (!e.repeat || !held.current.has(k))
        held.current.set(k, { inside: !e.repeat && inDialog(e.target), target: e.target })
    }
    const up = (e: KeyboardEvent): void => {
      if (MODIFIERS.has(e.key)) return
      const k = keyOf(e)
      releasing.current = held.current.get(k) ?? { inside: false, target: null }
      held.current.delete(k)
      setTimeout(() => (releasing.current = null), 0)
    }
    const forget = (): void => held.current.clear()
    doc.addEventListener('keydown', down, true)
    doc.addEventListener('keyup', up, true)
    window.addEventListener('blur', forget)
    return () => {
      doc.removeEventListener('keydown', down, true)
      doc.removeEventListener('keyup', up, true)
      window.removeEventListener('blur', forget)
    }
  }, [dialog])

  useEffect(() => {
    // a new request: whatever is held now went down before it was shown
    for (const press of held.current.values()) press.inside = false
  }, [requestKey])

  return useCallback((button: EventTarget, detail: number): boolean => {
    if (detail > 0) return true // a pointer click
    const presses = [...held.current.values()]
    if (releasing.current) presses.push(releasing.current)
    if (presses.some((p) => !p.inside)) return false
    if (repeating.current) return false
    if (presses.length === 0) return true
    return presses.some((p) => p.target === button)
  }, [])
}
