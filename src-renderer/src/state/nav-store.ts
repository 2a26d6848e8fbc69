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
  /** a wide window's sidebar, hidden by the user (Hide sidebar, Ctrl/Cmd+B) */
  sidebarHidden: boolean
  /** a narrow window's sidebar, open over the chat */
  sidebarOverlay: boolean
}

export interface NavActions {
  showChat(): void
  showSettings(section?: string): void
  setTarget(target: NavState['target']): void
  focusSearch(): void
  /** shows or hides the sidebar: in place when the window is wide, over the chat when narrow */
  toggleSidebar(narrow: boolean): void
  closeSidebarOverlay(): void
}

export type NavStore = StoreApi<NavState & NavActions>

export function createNavStore(): NavStore {
  return createStore<NavState & NavActions>()((set) => ({
    view: 'chat',
    section: '',
    target: null,
    searchFocusTick: 0,
    sidebarHidden: false,
    sidebarOverlay: false,
    showChat: () => set({ view: 'chat', sidebarOverlay: false }),
    showSettings: (section = '') => set({ view: 'settings', section, sidebarOverlay: false }),
    setTarget: (target) => set({ target }),
    // the search box is in the sidebar: searching shows it
    focusSearch: () =>
      set((s) => ({
        searchFocusTick: s.searchFocusTick + 1,
        sidebarHidden: false,
        sidebarOverlay: true,
      })),
    toggleSidebar: (narrow) =>
      set((s) =>
        narrow ? { sidebarOverlay: !s.sidebarOverlay } : { sidebarHidden: !s.sidebarHidden },
      ),
    closeSidebarOverlay: () => set({ sidebarOverlay: false }),
  }))
}
