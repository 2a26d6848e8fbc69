/**
 * What the address says is on screen, so a reload (or a bookmark) comes back to it:
 * `#/session/<id>`, `#/session/<id>/message/<messageId>` (a search result: that message,
 * highlighted), `#/settings/<section>`, or nothing (a new chat).
 */
export type Address =
  | { view: 'chat'; sessionId: string | null; messageId: string | null }
  | { view: 'settings'; section: string }

const ID = '[A-Za-z0-9_-]+'
const SESSION = new RegExp(`^#/session/(${ID})(?:/message/(${ID}))?$`)
const SETTINGS = /^#\/settings(?:\/([a-z-]+))?$/

export function parseAddress(hash: string): Address {
  const s = SESSION.exec(hash)
  if (s) return { view: 'chat', sessionId: s[1] ?? null, messageId: s[2] ?? null }
  const t = SETTINGS.exec(hash)
  if (t) return { view: 'settings', section: t[1] ?? '' }
  return { view: 'chat', sessionId: null, messageId: null }
}

export function formatAddress(a: Address): string {
  if (a.view === 'settings') return a.section ? `#/settings/${a.section}` : '#/settings'
  if (!a.sessionId) return ''
  return a.messageId
    ? `#/session/${a.sessionId}/message/${a.messageId}`
    : `#/session/${a.sessionId}`
}

/** @deprecated kept for callers that only need the session */
export function sessionFromHash(hash: string): string | null {
  const a = parseAddress(hash)
  return a.view === 'chat' ? a.sessionId : null
}
