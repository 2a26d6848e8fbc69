/**
 * A value that follows `value` at most every `ms` while it keeps changing: the first
 * change after a pause passes at once (a pasted query searches immediately), the rest of a
 * burst of typing waits until the typing pauses. An emptied value passes at once.
 */
import { useEffect, useRef, useState } from 'react'

export function useDebounced(value: string, ms: number): string {
  const [out, setOut] = useState(value)
  const lastChange = useRef(-Infinity)
  useEffect(() => {
    const now = performance.now()
    const quiet = now - lastChange.current >= ms
    lastChange.current = now
    if (value === '' || quiet) {
      setOut(value)
      return
    }
    const timer = setTimeout(() => setOut(value), ms)
    return () => clearTimeout(timer)
  }, [value, ms])
  return out
}
