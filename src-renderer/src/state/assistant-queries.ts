/**
 * The assistants in the query cache, and what the assistant forms read beside them: the
 * built-in tools and the MCP servers with their tools.
 */
import { useQuery, type QueryClient } from '@tanstack/react-query'
import type { Assistant } from '../../../src-preload/contract/assistants'
import type { RouteOutputs } from '../../../src-preload/contract/routes'
import { usePlatform } from './context'
import { call } from './queries'

const assistantsKey = ['assistants'] as const

export type AssistantList = RouteOutputs['assistants.list']

/** `fresh`: asked again on every mount (the assistants screen: the CLI or another window may have changed them) */
export function useAssistants(fresh = false) {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: assistantsKey,
    queryFn: () => call(bridge, 'assistants.list', {}),
    staleTime: 30_000,
    retry: false,
    ...(fresh ? { refetchOnMount: 'always' as const } : {}),
  })
}

/** The cached list changed at once by `change`, then asked again (the host keeps the truth). */
function updateList(client: QueryClient, change: (list: Assistant[]) => Assistant[]): void {
  client.setQueryData<AssistantList>(assistantsKey, (old) =>
    old ? { ...old, assistants: change(old.assistants) } : old,
  )
  void client.invalidateQueries({ queryKey: assistantsKey })
}

/** One saved assistant into the cached list (kept by name, as the host lists them). */
export function putAssistant(client: QueryClient, a: Assistant): void {
  updateList(client, (list) =>
    [...list.filter((x) => x.id !== a.id), a].sort((x, y) => x.name.localeCompare(y.name)),
  )
}

/** A deleted assistant out of the cached list. */
export function dropAssistant(client: QueryClient, id: string): void {
  updateList(client, (list) => list.filter((x) => x.id !== id))
}

export function useBuiltinTools() {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: ['tools.builtins'],
    queryFn: () => call(bridge, 'tools.builtins', {}),
    staleTime: Infinity,
  })
}
