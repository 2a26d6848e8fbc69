/**
 * The conversation on screen: the current session's stored messages, the running turn
 * (built from its events), pending approvals and the connection, fed by contract events
 * through the bridge. Components read it with `useChat`; nothing else talks to the bridge.
 */
import { create } from 'zustand'
import type { SequencedAgentEvent } from '../../../src-preload/contract/app-events'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { ApprovalDecision, StoredMessage } from '../../../src-preload/contract/dto'
import type { PermissionRequestEvent } from '../../../src-preload/contract/events'
import type { Connection } from '../bridge'
import type { ConnectionStatus } from '../bridge/ws-transport'
import { applyEvent, applyEvents, endMessage, newTurn, type TurnView } from './turn-reducer'

export interface ChatState {
  sessionId: string | null
  title: string
  history: StoredMessage[]
  turn: TurnView | null
  /** why the last turn ended, when it did not simply complete */
  lastEnd: string | null
  approvals: PermissionRequestEvent[]
  connection: ConnectionStatus
  /** a request that failed (shown until the next action) */
  error: string | null
  sending: boolean
}

export interface ChatActions {
  openSession(id: string | null): Promise<void>
  send(text: string): Promise<void>
  stop(): Promise<void>
  respond(requestId: string, decision: ApprovalDecision, reason?: string): Promise<void>
}

export type ChatStore = ChatState & ChatActions

export function createChatStore(
  bridge: CairnBridge,
  connection: Connection,
  onSession: (id: string | null) => void = () => {},
) {
  let attaching: SequencedAgentEvent[] | null = null

  const store = create<ChatStore>()((set, get) => {
    async function reload(sessionId: string): Promise<void> {
      const r = await bridge.request('sessions.get', { id: sessionId, limit: 200 })
      if (get().sessionId !== sessionId) return
      if (r.ok) set({ history: r.data.messages, title: r.data.session.title })
      else set({ error: r.error.message })
    }

    return {
      sessionId: null,
      title: '',
      history: [],
      turn: null,
      lastEnd: null,
      approvals: [],
      connection: connection.status(),
      error: null,
      sending: false,

      async openSession(id) {
        set({
          sessionId: id,
          title: '',
          history: [],
          turn: null,
          lastEnd: null,
          approvals: [],
          error: null,
        })
        onSession(id)
        if (!id) return
        attaching = []
        const [attach] = await Promise.all([
          bridge.request('chat.attach', { sessionId: id }),
          reload(id),
        ])
        const buffered: SequencedAgentEvent[] = attaching ?? []
        attaching = null
        if (get().sessionId !== id) return
        if (!attach.ok) return set({ error: attach.error.message })
        const { turn, pendingApprovals } = attach.data
        if (turn) {
          const view = applyEvents(applyEvents(newTurn(turn.turnId, id), turn.events), buffered)
          set({ turn: view.running ? view : null, approvals: pendingApprovals })
          if (!view.running) await reload(id)
        } else {
          set({ approvals: pendingApprovals })
        }
      },

      async send(text) {
        const { sessionId, turn, sending } = get()
        if (sending || turn?.running || !text.trim()) return
        set({ sending: true, error: null, lastEnd: null })
        const r = await bridge.request('chat.send', { text, ...(sessionId ? { sessionId } : {}) })
        set({ sending: false })
        if (!r.ok) return set({ error: r.error.message })
        const current = get()
        if (current.sessionId !== r.data.sessionId) {
          set({ sessionId: r.data.sessionId })
          onSession(r.data.sessionId)
        }
        if (!current.turn || current.turn.turnId !== r.data.turnId) {
          set({ turn: newTurn(r.data.turnId, r.data.sessionId) })
        }
        void reload(r.data.sessionId)
      },

      async stop() {
        const turn = get().turn
        if (!turn?.running) return
        const r = await bridge.request('chat.stop', { turnId: turn.turnId })
        if (!r.ok) set({ error: r.error.message })
      },

      async respond(requestId, decision, reason) {
        set((s) => ({ approvals: s.approvals.filter((a) => a.requestId !== requestId) }))
        const r = await bridge.request('approvals.respond', {
          requestId,
          decision,
          ...(reason ? { reason } : {}),
        })
        if (!r.ok) set({ error: r.error.message })
      },
    }
  })

  function onAgent(e: SequencedAgentEvent): void {
    if (attaching) attaching.push(e)
    const s = store.getState()
    let turn = s.turn
    if (!turn || turn.turnId !== e.turnId) {
      // a turn of this session that started here (before chat.send answered) or in another window
      const ours = e.sessionId === s.sessionId || (s.sending && !s.sessionId)
      if (e.type !== 'turn_start' || !ours || (turn && turn.running)) return
      turn = newTurn(e.turnId, e.sessionId)
      if (!s.sessionId) {
        store.setState({ sessionId: e.sessionId })
        onSession(e.sessionId)
      }
    }
    const next = applyEvent(turn, e)
    const patch: Partial<ChatState> = { turn: next }
    if (e.type === 'permission_request')
      patch.approvals = [...s.approvals.filter((a) => a.requestId !== e.requestId), e]
    if (e.type === 'permission_decision')
      patch.approvals = s.approvals.filter((a) => a.requestId !== e.requestId)
    if (e.type === 'turn_end') {
      patch.approvals = s.approvals.filter((a) => a.turnId !== e.turnId)
      patch.lastEnd = endMessage(next)
    }
    store.setState(patch)
    if (e.type === 'turn_end') {
      const sessionId = next.sessionId
      void bridge.request('sessions.get', { id: sessionId, limit: 200 }).then((r) => {
        if (store.getState().sessionId !== sessionId) return
        store.setState(
          r.ok
            ? { history: r.data.messages, title: r.data.session.title, turn: null }
            : { turn: null },
        )
      })
    }
  }

  bridge.on('agent', onAgent)
  connection.onStatus((status) => store.setState({ connection: status }))
  connection.onReconnect(() => void store.getState().openSession(store.getState().sessionId))
  return store
}
