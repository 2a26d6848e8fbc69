/**
 * Where the window is: the chat (the session itself is the live store's `currentId`) or a
 * settings section; and the message a search result asked to show, highlighted. The
 * address (`address.ts`) mirrors it; the app wires the two together in one place.
 */
import { createStore, type StoreApi } from 'zustand/vanilla'

export interface NavState {
  view: 'chat' | 'settings'
  /** the settings section on screen ('' = the first) */
  section: string
  /** a message to scroll to and highlight once its session is on screen */
  target: { sessionId: string; messageId: string } | null
  /** bumped when the sidebar's search box should take the focus (Ctrl/Cmd+K) */
  searchFocusTick: number
}

export interface NavActions {
  showChat(): void
  showSettings(section?: string): void
  setTarget(target: NavState['target']): void
  focusSearch(): void
}

export type NavStore = StoreApi<NavState & NavActions>

export function createNavStore(): NavStore {
  return createStore<NavState & NavActions>()((set) => ({
    view: 'chat',
    section: '',
    target: null,
    searchFocusTick: 0,
    showChat: () => set({ view: 'chat' }),
    showSettings: (section = '') => set({ view: 'settings', section }),
    setTarget: (target) => set({ target }),
    focusSearch: () => set((s) => ({ searchFocusTick: s.searchFocusTick + 1 })),
  }))
}
