/**
 * Server data in the query cache: a session's record and its stored messages (loaded from
 * the newest backwards, a page at a time), the settings and the provider's models. Live
 * turns are not here: they are in the live store, built from events.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import { call } from '../platform/request'
import type { SessionRecord, StoredMessage } from '../../../src-preload/contract/dto'
import { usePlatform } from './context'

/** messages per page: enough to fill a tall window, small enough to open at once */
export const PAGE = 120

export interface Conversation {
  messages: StoredMessage[]
  /** older messages exist that are not loaded yet */
  hasMore: boolean
}

export const keys = {
  conversation: (id: string) => ['conversation', id] as const,
  session: (id: string) => ['session', id] as const,
  settings: ['settings'] as const,
  models: (providerId: string | null) => ['models', providerId] as const,
  sessions: ['sessions'] as const,
}

export { call, errorInfoOf, RequestError } from '../platform/request'

/**
 * A page starts at an exchange (a user message), so a tool result never arrives without
 * the call it answers. A page with no user message at all (one very long turn) is kept
 * whole.
 */
function alignPage(messages: StoredMessage[], hasMore: boolean): StoredMessage[] {
  if (!hasMore) return messages
  const first = messages.findIndex((m) => m.role === 'user' && m.kind === 'message')
  return first > 0 ? messages.slice(first) : messages
}

/** Loads the newest page and merges it with what is loaded, keeping older pages. */
export async function fetchTail(
  bridge: CairnBridge,
  client: QueryClient,
  id: string,
): Promise<Conversation> {
  const r = await call(bridge, 'sessions.get', { id, limit: PAGE })
  client.setQueryData(keys.session(id), r.session)
  const tail = alignPage(r.messages, r.hasMore)
  const old = client.getQueryData<Conversation>(keys.conversation(id))
  const firstNew = tail[0]?.seq
  const lastOld = old?.messages[old.messages.length - 1]?.seq
  if (!old || firstNew === undefined || lastOld === undefined || firstNew > lastOld + 1) {
    return { messages: tail, hasMore: r.hasMore || tail.length < r.messages.length }
  }
  // unchanged messages keep their identity, so their rows do not render again
  const kept = old.messages.filter((m) => m.seq < firstNew)
  const bySeq = new Map(old.messages.map((m) => [m.seq, m]))
  const merged = tail.map((m) => {
    const before = bySeq.get(m.seq)
    return before && before.id === m.id && sameMessage(before, m) ? before : m
  })
  return { messages: [...kept, ...merged], hasMore: old.hasMore }
}

function sameMessage(a: StoredMessage, b: StoredMessage): boolean {
  return (
    a.content === b.content &&
    a.status === b.status &&
    a.reasoning === b.reasoning &&
    a.pinned === b.pinned
  )
}

/** Loads the page before the oldest loaded message. */
export async function fetchOlder(
  bridge: CairnBridge,
  client: QueryClient,
  id: string,
): Promise<void> {
  const old = client.getQueryData<Conversation>(keys.conversation(id))
  const first = old?.messages[0]?.seq
  if (!old || !old.hasMore || first === undefined) return
  const r = await call(bridge, 'sessions.get', { id, beforeSeq: first, limit: PAGE })
  const page = alignPage(r.messages, r.hasMore)
  const now = client.getQueryData<Conversation>(keys.conversation(id))
  if (!now || now.messages[0]?.seq !== first) return
  client.setQueryData<Conversation>(keys.conversation(id), {
    messages: [...page, ...now.messages],
    hasMore: r.hasMore || page.length < r.messages.length,
  })
}

export function useConversation(id: string | null) {
  const { bridge, client } = usePlatform()
  return useQuery({
    queryKey: keys.conversation(id ?? ''),
    queryFn: () => fetchTail(bridge, client, id!),
    enabled: id !== null,
    staleTime: Infinity,
  })
}

export function useSession(id: string | null) {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: keys.session(id ?? ''),
    queryFn: async (): Promise<SessionRecord> =>
      (await call(bridge, 'sessions.get', { id: id!, limit: 1 })).session,
    enabled: id !== null,
    staleTime: Infinity,
  })
}

export function useSettings() {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: keys.settings,
    queryFn: () => call(bridge, 'settings.get', {}),
    staleTime: 60_000,
  })
}

/** The models the active provider serves (for the picker and `/model` completion). */
export function useModels(enabled = true) {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: keys.models(null),
    queryFn: () => call(bridge, 'providers.models', {}),
    enabled,
    staleTime: 5 * 60_000,
    retry: false,
  })
}
