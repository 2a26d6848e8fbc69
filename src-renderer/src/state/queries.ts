/**
 * Server data in the query cache: a session's record and its stored messages (loaded from
 * the newest backwards, a page at a time), the settings and the provider's models. Live
 * turns are not here: they are in the live store, built from events.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import { call, errorInfoOf } from '../platform/request'
import type { ErrorInfo } from '../../../src-preload/contract/errors'
import type {
  BranchVersions,
  SessionRecord,
  StoredMessage,
} from '../../../src-preload/contract/dto'
import { usePlatform } from './context'

/** messages per page: enough to fill a tall window, small enough to open at once */
export const PAGE = 120

/** What of a session's open branch is loaded: its newest messages, a page at a time. */
export interface Conversation {
  messages: StoredMessage[]
  /** older messages exist that are not loaded yet */
  hasMore: boolean
  /** the versions at each message of the branch that has some ("‹ 2/3 ›") */
  versions: BranchVersions
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

/**
 * Loads the newest page of the open branch and merges it with what is loaded: the older
 * pages are kept when the page goes on from them (the same branch), else it replaces them
 * (another branch was opened).
 */
export async function fetchTail(
  bridge: CairnBridge,
  client: QueryClient,
  id: string,
): Promise<Conversation> {
  const r = await call(bridge, 'sessions.get', { id, limit: PAGE })
  client.setQueryData(keys.session(id), r.session)
  const tail = alignPage(r.messages, r.hasMore)
  const old = client.getQueryData<Conversation>(keys.conversation(id))
  const versions = r.versions ?? {}
  const fresh = { hasMore: r.hasMore || tail.length < r.messages.length, versions }
  const first = tail[0]
  if (!old || !first) return { messages: tail, ...fresh }
  // unchanged messages keep their identity, so their rows do not render again
  const bySeq = new Map(old.messages.map((m) => [m.seq, m]))
  const merged = tail.map((m) => {
    const before = bySeq.get(m.seq)
    return before && before.id === m.id && sameMessage(before, m) ? before : m
  })
  if (!fresh.hasMore) return { messages: merged, ...fresh }
  const joint = old.messages.findIndex((m) => m.seq === first.parentSeq)
  if (joint < 0) return { messages: merged, ...fresh }
  const kept = old.messages.filter(
    (m, i) => i <= joint || (m.kind === 'summary' && m.seq < first.seq),
  )
  return { messages: [...kept, ...merged], hasMore: old.hasMore, versions }
}

function sameMessage(a: StoredMessage, b: StoredMessage): boolean {
  return (
    a.content === b.content &&
    a.status === b.status &&
    a.reasoning === b.reasoning &&
    a.pinned === b.pinned
  )
}

/** Loads the page of the branch before the oldest loaded message. */
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
    versions: { ...r.versions, ...now.versions },
  })
}

/**
 * Opens the branch that shows a message (by number: "‹ 2/3 ›"; by id: a search hit on
 * another branch) and loads it; resolves with why not, or null.
 */
export async function openBranch(
  bridge: CairnBridge,
  client: QueryClient,
  id: string,
  at: { seq: number } | { messageId: string },
): Promise<ErrorInfo | null> {
  const r = await bridge.request('sessions.openBranch', { id, ...at })
  if (!r.ok) return r.error
  client.setQueryData(keys.session(id), r.data)
  try {
    client.setQueryData(keys.conversation(id), await fetchTail(bridge, client, id))
  } catch (e) {
    return errorInfoOf(e)
  }
  return null
}

/** "Branch into new chat" at a message: the new chat's id, or why not */
export async function forkChat(
  bridge: CairnBridge,
  client: QueryClient,
  id: string,
  messageId: string,
): Promise<{ id: string } | { error: ErrorInfo }> {
  const r = await bridge.request('sessions.fork', { id, messageId })
  if (!r.ok) return { error: r.error }
  client.setQueryData(keys.session(r.data.id), r.data)
  void client.invalidateQueries({ queryKey: keys.sessions })
  return { id: r.data.id }
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
