/**
 * Light or dark: the system's choice until the user picks one (remembered in this browser).
 * One store for the whole window, so the header's switch and the settings' choice agree,
 * and the theme follows the system even while neither is on screen.
 */
import { useSyncExternalStore } from 'react'

export type Theme = 'light' | 'dark'
/** what the user chose: a theme, or whatever the system prefers */
export type ThemeChoice = Theme | 'system'
const KEY = 'cairn.theme'

function systemTheme(): Theme {
  return window.matchMedia?.('(prefers-color-scheme: dark)').matches ? 'dark' : 'light'
}

function stored(): Theme | null {
  try {
    const v = localStorage.getItem(KEY)
    return v === 'light' || v === 'dark' ? v : null
  } catch {
    return null
  }
}

interface ThemeState {
  choice: ThemeChoice
  theme: Theme
}

let state: ThemeState | null = null
const listeners = new Set<() => void>()

function read(): ThemeState {
  const choice = stored() ?? 'system'
  return { choice, theme: choice === 'system' ? systemTheme() : choice }
}

function current(): ThemeState {
  state ??= start()
  return state
}

function refresh(): void {
  const next = read()
  if (state && next.choice === state.choice && next.theme === state.theme) return
  state = next
  document.documentElement.dataset['theme'] = next.theme
  for (const l of [...listeners]) l()
}

function start(): ThemeState {
  const first = read()
  document.documentElement.dataset['theme'] = first.theme
  window.matchMedia?.('(prefers-color-scheme: dark)').addEventListener?.('change', refresh)
  window.addEventListener?.('storage', (e) => {
    if (e.key === KEY) refresh()
  })
  return first
}

function subscribe(listener: () => void): () => void {
  current()
  listeners.add(listener)
  return () => listeners.delete(listener)
}

/** Remembers the choice ('system' forgets the override) and applies it at once. */
export function setThemeChoice(choice: ThemeChoice): void {
  current()
  try {
    if (choice === 'system') localStorage.removeItem(KEY)
    else localStorage.setItem(KEY, choice)
  } catch {
    // storage refused: the choice lasts for this page
    state = { choice, theme: choice === 'system' ? systemTheme() : choice }
    document.documentElement.dataset['theme'] = state.theme
    for (const l of [...listeners]) l()
    return
  }
  refresh()
}

export function useThemeChoice(): [ThemeChoice, Theme, (choice: ThemeChoice) => void] {
  const s = useSyncExternalStore(subscribe, current)
  return [s.choice, s.theme, setThemeChoice]
}

/** The theme on screen and a switch to the other one (which becomes the user's choice). */
export function useTheme(): [Theme, () => void] {
  const [, theme] = useThemeChoice()
  return [theme, () => setThemeChoice(theme === 'dark' ? 'light' : 'dark')]
}
