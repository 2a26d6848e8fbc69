/**
 * Keeps the address and the window in step, both ways: a typed or reloaded address opens
 * what it names; opening a session or a settings section writes the address (replacing
 * it, so Back does not walk through every chat).
 */
import type { AppEnv } from './context'
import { formatAddress, parseAddress, type Address } from './address'

export interface AddressLocation {
  hash: string
  replace(hash: string): void
  onChange(listener: () => void): void
}

/** The address of what is on screen now. */
export function currentAddress(env: AppEnv): Address {
  const nav = env.nav.getState()
  if (nav.view === 'settings') return { view: 'settings', section: nav.section }
  const sessionId = env.live.getState().currentId
  const target = nav.target
  return {
    view: 'chat',
    sessionId,
    messageId: target && target.sessionId === sessionId ? target.messageId : null,
  }
}

export function applyAddress(env: AppEnv, a: Address): void {
  if (a.view === 'settings') {
    env.nav.getState().showSettings(a.section)
    return
  }
  const nav = env.nav.getState()
  nav.setTarget(a.sessionId && a.messageId ? { sessionId: a.sessionId, messageId: a.messageId } : null)
  nav.showChat()
  env.live.getState().open(a.sessionId)
}

/** Wires the address to the stores; call once, after the env is built. */
export function syncAddress(env: AppEnv, loc: AddressLocation): void {
  applyAddress(env, parseAddress(loc.hash))
  const write = (): void => {
    const hash = formatAddress(currentAddress(env))
    if (loc.hash !== hash) loc.replace(hash)
  }
  loc.onChange(() => applyAddress(env, parseAddress(loc.hash)))
  env.live.subscribe((s, prev) => {
    if (s.currentId !== prev.currentId) write()
  })
  env.nav.subscribe((s, prev) => {
    if (s.view !== prev.view || s.section !== prev.section || s.target !== prev.target) write()
  })
}

/** The browser's own address bar. */
export const windowLocation: AddressLocation = {
  get hash() {
    return location.hash
  },
  replace(hash) {
    history.replaceState(null, '', `${location.pathname}${location.search}${hash}`)
  },
  onChange(listener) {
    window.addEventListener('hashchange', listener)
  },
}
