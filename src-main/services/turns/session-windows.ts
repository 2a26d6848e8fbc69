/**
 * The context window each session's last turn was fitted into (and where it came from),
 * kept in memory by the host that ran it, so that the window's meter shows the window the
 * model really has rather than the settings' default. Bounded: the oldest entries go first.
 */
export interface SessionWindow {
  tokens: number
  source: string
}

const MAX_SESSIONS = 500
const windows = new Map<string, SessionWindow>()

export function rememberSessionWindow(sessionId: string, w: SessionWindow): void {
  windows.delete(sessionId)
  windows.set(sessionId, w)
  if (windows.size > MAX_SESSIONS) windows.delete(windows.keys().next().value as string)
}

export function sessionWindow(sessionId: string): SessionWindow | null {
  return windows.get(sessionId) ?? null
}
