/**
 * The connected MCP servers' resources and prompts, for `@` and `/server:prompt`. Listed
 * when first wanted; a server's list_changed (the `mcp.listChanged` event) or a server becoming
 * ready or stopping lists them again.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'

const resourcesKey = ['mcp.resources'] as const
const promptsKey = ['mcp.prompts'] as const

/** Keeps both lists fresh; the composer calls it once for the two lists below. */
export function useResourcesAndPromptsEvents(): void {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  useEffect(() => {
    const onListChanged = (c: { what: 'resources' | 'prompts' }): void => {
      void client.invalidateQueries({
        queryKey: c.what === 'resources' ? resourcesKey : promptsKey,
      })
    }
    const onStatus = (): void => {
      void client.invalidateQueries({ queryKey: resourcesKey })
      void client.invalidateQueries({ queryKey: promptsKey })
    }
    bridge.on('mcp.listChanged', onListChanged)
    bridge.on('mcp.status', onStatus)
    return () => {
      bridge.off('mcp.listChanged', onListChanged)
      bridge.off('mcp.status', onStatus)
    }
  }, [bridge, client])
}

export function useMcpResources(enabled: boolean) {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: resourcesKey,
    queryFn: () => call(bridge, 'mcp.resources', {}),
    enabled,
    staleTime: 60_000,
    retry: false,
  })
}

export function useMcpPrompts(enabled: boolean) {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: promptsKey,
    queryFn: () => call(bridge, 'mcp.prompts', {}),
    enabled,
    staleTime: 60_000,
    retry: false,
  })
}
