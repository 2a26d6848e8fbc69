/**
 * The window's environment, provided through React context: the platform (bridge,
 * connection, clipboard, external links), the query cache and the live store. The app
 * builds it once from the chosen platform (`createAppEnv`, app-env.ts); component tests
 * build it from a test platform.
 */
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query'
import { createContext, useContext, type JSX, type ReactNode } from 'react'
import { useStore } from 'zustand'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { Platform } from '../platform/types'
import type { DamageStore } from './damage-watch'
import type { NavActions, NavState, NavStore } from './nav-store'
import type { LiveActions, LiveState, LiveStore } from './live-types'

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
