/**
 * The window's environment, provided through React context: the platform (bridge,
 * connection, clipboard, external links), the query cache and the live store. The app
 * builds it once from the chosen platform; component tests build it from a test platform.
 */
import { QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { createContext, useContext, type JSX, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { Platform } from '../platform/types'
import { watchDamage, type DamageStore } from './damage-watch'
import { createNavStore, type NavActions, type NavState, type NavStore } from './nav-store'
import {
  createLiveStore,
  type LiveActions,
  type LiveState,
  type LiveStore,
  type LiveStoreOptions,
} from './live-store'

export interface AppEnv {
  platform: Platform
  bridge: CairnBridge
  client: QueryClient
  live: LiveStore
  /** where the window is (chat or settings) */
  nav: NavStore
  /** Cairn's database found damaged (a request or a turn said so) */
  damage: DamageStore
}

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

const EnvContext = createContext<AppEnv | null>(null)

export function AppProviders(props: { env: AppEnv; children: ReactNode }): JSX.Element {
  return (
    <QueryClientProvider client={props.env.client}>
      <EnvContext.Provider value={props.env}>{props.children}</EnvContext.Provider>
    </QueryClientProvider>
  )
}

export function usePlatform(): AppEnv {
  const env = useContext(EnvContext)
  if (!env) throw new Error('usePlatform outside <AppProviders>')
  return env
}

export function useLive<T>(selector: (s: LiveState & LiveActions) => T): T {
  return useStore(usePlatform().live, selector)
}

export function useNav<T>(selector: (s: NavState & NavActions) => T): T {
  return useStore(usePlatform().nav, selector)
}
