/** The app's store, wired to the bridge once. The session id lives in the address (#/session/<id>). */
import { bridge, connection } from '../bridge'
import { createChatStore } from './chat-store'

export function sessionFromHash(hash: string): string | null {
  const m = /^#\/session\/([A-Za-z0-9_-]+)$/.exec(hash)
  return m?.[1] ?? null
}

export const useChat = createChatStore(bridge, connection, (id) => {
  const hash = id ? `#/session/${id}` : ''
  if (location.hash !== hash)
    history.replaceState(null, '', `${location.pathname}${location.search}${hash}`)
})
