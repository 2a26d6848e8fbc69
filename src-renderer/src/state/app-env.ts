/**
 * Builds the window's environment (context.tsx provides it): the query cache, the live store
 * and the navigation over the chosen platform, with every request watched for a damaged
 * database.
 */
import { QueryClient } from '@tanstack/react-query'
import type { Platform } from '../platform/types'
import type { AppEnv } from './context'
import { watchDamage } from './damage-watch'
import { createLiveStore, type LiveStoreOptions } from './live-store'
import { createNavStore } from './nav-store'

export function createAppEnv(platform: Platform, opts: LiveStoreOptions = {}): AppEnv {
  const client = new QueryClient({
    defaultOptions: {
      queries: { refetchOnWindowFocus: false, retry: 1, staleTime: 30_000 },
    },
  })
  // every request and turn is watched for a damaged database
  const watched = watchDamage(platform.bridge)
  const host: Platform = { ...platform, bridge: watched.bridge }
  return {
    platform: host,
    bridge: watched.bridge,
    client,
    live: createLiveStore(host, client, opts),
    nav: createNavStore(),
    damage: watched.damage,
  }
}
