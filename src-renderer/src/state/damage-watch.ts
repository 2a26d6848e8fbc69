/**
 * Cairn's database found damaged while the window runs: any request answered with
 * `database_damaged`, or a turn that ended with it, is remembered here, so that the window
 * says it once, in one place, with what to do (`DamagedDatabaseBanner`).
 */
import { createStore, type StoreApi } from 'zustand/vanilla'
import type { CairnBridge } from '../../../src-preload/contract/bridge'

export const DATABASE_DAMAGED = 'database_damaged'

export interface DamageState {
  /** what the host said is wrong and what to do; null while nothing was found */
  message: string | null
}

export type DamageStore = StoreApi<DamageState>

/** `bridge`, watched: the same requests and events, and a store told of damage. */
export function watchDamage(bridge: CairnBridge): { bridge: CairnBridge; damage: DamageStore } {
  const damage = createStore<DamageState>(() => ({ message: null }))
  const found = (message: string): void => {
    if (damage.getState().message === null) damage.setState({ message })
  }
  bridge.on('agent', (e) => {
    if (e.type === 'turn_end' && e.error?.code === DATABASE_DAMAGED) found(e.error.message)
  })
  return {
    damage,
    bridge: {
      async request(route, input) {
        const r = await bridge.request(route, input)
        if (!r.ok && r.error.code === DATABASE_DAMAGED) found(r.error.message)
        return r
      },
      on: (event, listener) => bridge.on(event, listener),
      off: (event, listener) => bridge.off(event, listener),
    },
  }
}
