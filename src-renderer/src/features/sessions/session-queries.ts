/**
 * The sidebar's server data in the query cache, under `keys.sessions` (which the live
 * store invalidates when a session changes): the session list a page at a time, and
 * search results per query.
 */
import { keepPreviousData, useInfiniteQuery, useQuery } from '@tanstack/react-query'
import type { SessionRecord } from '../../../../src-preload/contract/dto'
import { usePlatform } from '../../state/context'
import { call, keys } from '../../state/queries'

/** sessions per page of the list */
export const SESSION_PAGE = 60
/** search hits asked for (then grouped by session) */
export const SEARCH_LIMIT = 100

export const sessionListKey = [...keys.sessions, 'list'] as const
export const searchKey = (query: string) => [...keys.sessions, 'search', query] as const

export function useSessionList() {
  const { bridge } = usePlatform()
  return useInfiniteQuery({
    queryKey: sessionListKey,
    queryFn: ({ pageParam }) =>
      call(bridge, 'sessions.list', { limit: SESSION_PAGE, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((n, p) => n + p.sessions.length, 0)
      return last.sessions.length > 0 && loaded < last.total ? loaded : undefined
    },
  })
}

/** the pages as one list; a session that moved between pages while they loaded shows once */
export function flattenPages(pages: readonly { sessions: SessionRecord[] }[]): SessionRecord[] {
  const seen = new Set<string>()
  const out: SessionRecord[] = []
  for (const p of pages)
    for (const s of p.sessions) {
      if (seen.has(s.id)) continue
      seen.add(s.id)
      out.push(s)
    }
  return out
}

export function useSearchHits(query: string) {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: searchKey(query),
    queryFn: async ({ signal }) => {
      // newest first: the sidebar groups hits by chat, most recent chats on top (and the
      // index walk stops at the limit, where ranking scores every match of common words)
      const r = await call(bridge, 'sessions.search', {
        query,
        order: 'newest',
        limit: SEARCH_LIMIT,
      })
      // a newer query took its place: its answer is dropped
      signal.throwIfAborted()
      return r.hits
    },
    enabled: query !== '',
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  })
}
