/** The first run's server data: whether a provider is configured, the local servers found. */
import { useQuery, type QueryClient } from '@tanstack/react-query'
import { usePlatform } from './context'
import { call, keys } from './queries'

export const statusKey = ['providers', 'status'] as const
export const detectKey = ['providers', 'detect'] as const

export function useProviderStatus() {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: statusKey,
    queryFn: () => call(bridge, 'providers.status', {}),
    staleTime: 30_000,
  })
}

export function useLocalServers(enabled: boolean) {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: detectKey,
    queryFn: () => call(bridge, 'providers.detect', {}),
    enabled,
    retry: false,
  })
}

/** After a provider was saved: everything that depends on which provider is active. */
export function providerChanged(client: QueryClient): Promise<void> {
  return Promise.all([
    client.invalidateQueries({ queryKey: statusKey }),
    client.invalidateQueries({ queryKey: keys.settings }),
    client.invalidateQueries({ queryKey: ['models'] }),
  ]).then(() => undefined)
}
