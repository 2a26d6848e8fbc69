import { useEffect, useState } from 'react'

/** The time, updated every `intervalMs` while `active` (for elapsed times and countdowns). */
export function useNow(active: boolean, intervalMs = 1000): number {
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (!active) return
    setNow(Date.now())
    const t = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(t)
  }, [active, intervalMs])
  return now
}

/** 850 ms → "0.9 s", 12 400 → "12 s", 95 000 → "1 min 35 s" */
export function formatDuration(ms: number): string {
  if (ms < 10_000) return `${(ms / 1000).toFixed(1)} s`
  const s = Math.round(ms / 1000)
  if (s < 60) return `${s} s`
  const m = Math.floor(s / 60)
  return `${m} min ${s % 60} s`
}

const nf = new Intl.NumberFormat('en')

/** Tokens in and out; "≈" when the numbers are estimates. */
export function formatUsage(u: {
  inputTokens: number
  outputTokens: number
  estimated?: boolean
}): string {
  const approx = u.estimated ? '≈' : ''
  return `${approx}${nf.format(u.inputTokens)} in · ${approx}${nf.format(u.outputTokens)} out`
}
