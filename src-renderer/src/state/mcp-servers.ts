/**
 * The MCP servers in the query cache, kept live: the host pushes `mcp.status` whenever a
 * server's status changes, and the list follows without asking again.
 */
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { McpServerInfo } from '../../../src-preload/contract/dto'
import type { RouteOutputs } from '../../../src-preload/contract/routes'
import { usePlatform } from './context'
import { call } from './queries'

export const mcpKey = ['mcp.list'] as const

export type McpList = RouteOutputs['mcp.list']

/**
 * One server's new status into the cached list. A server the list does not hold is left
 * out: it was just removed (its stop is reported after), or the answer that adds it comes.
 */
export function withServer(list: McpList, info: McpServerInfo): McpList {
  if (!list.servers.some((s) => s.name === info.name)) return list
  return { ...list, servers: list.servers.map((s) => (s.name === info.name ? info : s)) }
}

/** Puts a route's answer (the whole list) into the cache. */
export function setServers(client: QueryClient, servers: McpServerInfo[]): void {
  client.setQueryData<McpList>(mcpKey, (old) => ({ fromFile: old?.fromFile ?? false, servers }))
}

export function useMcpServers() {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  useEffect(() => {
    const onStatus = (info: McpServerInfo): void => {
      client.setQueryData<McpList>(mcpKey, (old) => (old ? withServer(old, info) : old))
    }
    bridge.on('mcp.status', onStatus)
    return () => bridge.off('mcp.status', onStatus)
  }, [bridge, client])
  return useQuery({
    queryKey: mcpKey,
    queryFn: () => call(bridge, 'mcp.list', {}),
    staleTime: Infinity,
  })
}
